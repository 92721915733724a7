import { randomBytes } from 'node:crypto'
import { createGraphClient } from '~/integrations/meta/graph.server'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import type { PlatformDeps } from '~/services/channels/platform-deps.server'
import { testMetaConfig } from './meta'

/**
 * The channel services' dependencies for Telegram channels only: the Telegram fake at `apiRoot`, webhooks under a
 * public https address, a fresh token key, and no Graph API behind Meta's client (facebook.server.test.ts has those).
 */
export function telegramPlatformDeps(apiRoot: string): PlatformDeps {
  const graphRoot = 'http://127.0.0.1:9'
  const app = { appId: '1', appSecret: 'unused' }
  return {
    publicUrl: 'https://replypilot.example.com',
    telegramUpdates: 'webhook',
    encryptionKey: randomBytes(32).toString('hex'),
    telegram: createTelegramClient({ apiRoot }),
    graph: createGraphClient({ graphRoot, version: 'v23.0', ...app }),
    meta: testMetaConfig(graphRoot, app),
  }
}
