/**
 * What the pipeline benchmark and the crash drill share: tenants with connected Telegram bots (their webhooks
 * pointed at the web process to come) and an agent each, seeded straight through the services before any
 * server opens the database (PGlite admits one process), and the app's processes as children with the
 * environment that points them at the fakes.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from '~/db/client.server'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import type { AgentBehaviour } from '~/lib/agents/behaviour'
import { assignAgent } from '~/services/channels/channels.server'
import type { TelegramFake } from '../fakes/telegram-server'
import { telegramTextUpdate } from '../fixtures/telegram'
import { newOwnerScope } from './scope'
import { connectTestBot, newTestAgent } from './tenant'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export type RigBot = { token: string; channelId: string; secret: string; webhookUrl: string }

/**
 * `count` tenants, each with a Telegram bot whose webhook points at `publicUrl` and an active agent on it, with
 * `behaviour` (e.g. a burst wait; by default the agent answers each message at once).
 */
export async function seedBots({
  db,
  telegram,
  publicUrl,
  encryptionKey,
  count,
  behaviour,
}: {
  db: Database
  telegram: TelegramFake
  publicUrl: string
  encryptionKey: string
  count: number
  behaviour?: Partial<AgentBehaviour>
}): Promise<RigBot[]> {
  const deps = {
    publicUrl,
    encryptionKey,
    telegramUpdates: 'webhook' as const,
    telegram: createTelegramClient({ apiRoot: telegram.apiRoot }),
  }
  const bots: RigBot[] = []
  for (let i = 0; i < count; i++) {
    const scope = await newOwnerScope(db, 'Bench', `Bench ${i + 1}`)
    const { token, channelId } = await connectTestBot(scope, telegram, deps, {
      username: `bench_${i + 1}_bot`,
    })
    const hook = telegram.webhooks.get(token)
    if (!hook?.secretToken) throw new Error('The webhook was not set on the Telegram fake')
    const agent = await newTestAgent(scope, {
      name: 'Helper',
      creativityLevel: 0.2,
      systemPrompt: 'You are a helpful assistant.',
      ...behaviour,
    })
    await assignAgent(scope, channelId, { agentId: agent.id, agentEnabled: true })
    bots.push({ token, channelId, secret: hook.secretToken, webhookUrl: hook.url })
  }
  return bots
}

/** A Telegram text update from a person in a private chat (the chat id is the person's id). */
export function textUpdate(updateId: number, chatId: number, messageId: number, text: string) {
  return telegramTextUpdate({ updateId, messageId, chatId, text }, { username: 'ann' })
}

export type AppProcess = {
  child: ChildProcess
  /** Resolves once the process has printed `line` (e.g. "worker started"), rejects if it exits first. */
  printed(line: string, timeoutMs?: number): Promise<void>
  /** SIGTERM, then SIGKILL after 8 s; resolves when it has exited. */
  stop(): Promise<void>
  exited(): Promise<void>
}

/**
 * `node --import tsx <entry>` (server/index.ts or server/worker.ts) with `env` over this process's environment;
 * its output goes to `logFile`.
 */
export function startAppProcess(
  entry: string,
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): AppProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], {
    cwd: ROOT,
    // The bots' webhooks point at these processes on localhost: webhooks, not the long polling localhost means.
    env: { ...process.env, TELEGRAM_UPDATES: 'webhook', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = createWriteStream(logFile, { flags: 'a' })
  let seen = ''
  const waiters = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    log.write(chunk)
    seen = (seen + chunk.toString('utf8')).slice(-20_000)
    for (const check of [...waiters]) check()
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  exit.then(() => log.end())
  const gone = () => child.exitCode !== null || child.signalCode !== null
  return {
    child,
    printed(line, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`${entry} did not print "${line}" in ${timeoutMs} ms`)),
          timeoutMs,
        )
        const done = (error?: Error) => {
          clearTimeout(timer)
          waiters.delete(check)
          if (error) reject(error)
          else resolve()
        }
        const check = () => {
          if (seen.includes(line)) done()
          else if (gone())
            done(new Error(`${entry} exited (${child.exitCode ?? child.signalCode}):\n${seen.slice(-3000)}`))
        }
        waiters.add(check)
        void exit.then(check)
        check()
      })
    },
    async stop() {
      if (gone()) return
      const killer = setTimeout(() => child.kill('SIGKILL'), 8000)
      child.kill('SIGTERM')
      await exit
      clearTimeout(killer)
    },
    exited: () => exit,
  }
}
