import { openDatabase, type DatabaseHandle } from '~/db/client.server'
import { createFirebaseIdentity, type FirebaseIdentity } from '~/integrations/firebase/identity.server'
import { createModelClient, type ModelClient } from '~/integrations/llm/model.server'
import { createTelegramClient, type TelegramClient } from '~/integrations/telegram/bot-api.server'
import { getConfig, type Config } from './env.server'
import { getLogger, type Logger } from './logger.server'

/** Everything a request or a job needs from the process: built once, shared by every module instance. */
export type Runtime = {
  config: Config
  database: DatabaseHandle
  identity: FirebaseIdentity
  models: ModelClient
  telegram: TelegramClient
  logger: Logger
}

declare global {
  // Survives the dev server re-importing modules; only `var` reaches globalThis.
  var __replypilotRuntime: Promise<Runtime> | undefined
}

async function createRuntime(): Promise<Runtime> {
  const config = getConfig()
  const logger = getLogger()
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const identity = createFirebaseIdentity(config.firebase)
  const models = createModelClient(config.llm)
  const telegram = createTelegramClient({ apiRoot: config.telegramApiRoot })
  logger.info('runtime ready', {
    database: database.driver,
    authEmulator: config.firebase.emulatorHost ?? null,
    modelProvider: models.provider,
  })
  return { config, database, identity, models, telegram, logger }
}

/** The process's runtime, created on first use (the server entry awaits it before listening). */
export function getRuntime(): Promise<Runtime> {
  globalThis.__replypilotRuntime ??= createRuntime().catch((error: unknown) => {
    globalThis.__replypilotRuntime = undefined
    throw error
  })
  return globalThis.__replypilotRuntime
}

export async function closeRuntime(): Promise<void> {
  const pending = globalThis.__replypilotRuntime
  globalThis.__replypilotRuntime = undefined
  if (!pending) return
  const runtime = await pending
  await runtime.database.close()
}
