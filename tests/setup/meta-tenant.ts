import { randomBytes, randomInt } from 'node:crypto'
import { createGraphClient } from '~/integrations/meta/graph.server'
import { FACEBOOK_PERMISSIONS } from '~/lib/channels/facebook'
import { createTelegramClient } from '~/integrations/telegram/bot-api.server'
import type { PlatformDeps } from '~/services/channels/platform-deps.server'
import type { GraphFake } from '../fakes/graph-server'
import { testMetaConfig } from './meta'

export const META_SERVICE_APP = { appId: '5550001111', appSecret: 'service-meta-S3CRET' }

/** The channel services' dependencies with the Graph fake behind them (Telegram pointed at nothing). */
export function metaServiceDeps(fake: GraphFake): PlatformDeps {
  return {
    publicUrl: 'https://replypilot.example.com',
    telegramUpdates: 'webhook',
    encryptionKey: randomBytes(32).toString('hex'),
    telegram: createTelegramClient({ apiRoot: 'http://127.0.0.1:9' }),
    graph: createGraphClient({ graphRoot: fake.graphRoot, version: 'v23.0', ...META_SERVICE_APP }),
    meta: testMetaConfig(fake.graphRoot, META_SERVICE_APP),
  }
}

// Graph ids are random over a wide range: test files share one PostgreSQL database, and a page or number is
// connected once product-wide.
export const graphId = () => String(randomInt(100_000_000_000, 900_000_000_000))
const secret = (kind: string) => `EAA${kind}-S3CRET-${randomBytes(9).toString('base64url')}`

export type FakePage = { id: string; name: string; category: string; tasks: string[]; accessToken: string }

/** A Facebook person (user token) who administers `count` pages, known to the fake. */
export function seedFacebookUser(
  fake: GraphFake,
  count = 2,
  permissions: string[] = [...FACEBOOK_PERMISSIONS],
) {
  const userToken = secret('user')
  const pages: FakePage[] = Array.from({ length: count }, (_, i) => ({
    id: graphId(),
    name: `Acme Page ${i + 1}`,
    category: 'Shopping & retail',
    tasks: ['MANAGE', 'MESSAGING'],
    accessToken: secret('page'),
  }))
  fake.seed({ users: { [userToken]: { id: graphId(), permissions, pages } } })
  return { userToken, pages }
}

/** A WhatsApp number of a WABA, and a fresh Embedded Signup code for a business token that may act on it. */
export function seedWhatsAppNumber(fake: GraphFake, wabaId = graphId()) {
  const [phoneNumberId, code, businessToken] = [graphId(), secret('code'), secret('biz')]
  const display = `+1 555-${randomInt(100, 999)}-${randomInt(1000, 9999)}`
  fake.seed({
    whatsappCodes: { [code]: businessToken },
    phoneNumbers: {
      [phoneNumberId]: { verified_name: 'Acme Support', display_phone_number: display, wabaId },
    },
    wabas: { [wabaId]: { name: 'Acme WABA', currency: 'USD', timezone_id: '1' } },
  })
  return { phoneNumberId, wabaId, code, businessToken, display }
}

/** Another single-use code for the same business token (a second number of one WABA). */
export function newSignupCode(fake: GraphFake, businessToken: string) {
  const code = secret('code')
  fake.seed({ whatsappCodes: { [code]: businessToken } })
  return code
}
