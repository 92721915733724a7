import { randomInt, randomUUID } from 'node:crypto'
import { expect, type Page } from '@playwright/test'
import {
  deliverSignedWebhook,
  type GraphCall,
  type GraphFakeSeed,
  type GraphFakeState,
  type SentMessage,
} from '../fakes/graph-server'
import { FACEBOOK_PERMISSIONS } from '../../app/lib/channels/facebook'
import { E2E_META_APP } from './meta-app'

/**
 * What the Meta specs share: the Graph fake's control API (seeded and read over HTTP), Facebook users and WhatsApp
 * numbers it knows, the Add Channel menu's Meta items and signed deliveries to the running app's webhook. Ids and
 * tokens are unique per call: workers share the fakes and the database.
 */
export const GRAPH_URL = process.env.E2E_FAKE_GRAPH_URL ?? ''

/** The permissions the spec's Facebook login asks for, in its order. */
export { FACEBOOK_PERMISSIONS }

/** A numeric id shaped like Graph's (page, WABA, phone number, PSID). */
export const graphId = () => String(randomInt(1e9, 9e9)) + String(randomInt(1e5, 9e5))

export async function seedGraph(seed: GraphFakeSeed) {
  const response = await fetch(`${GRAPH_URL}/__fake/seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(seed),
  })
  expect(response.ok).toBe(true)
}

export const graphCalls = async (): Promise<GraphCall[]> => (await fetch(`${GRAPH_URL}/__fake/calls`)).json()
export const graphState = async (): Promise<GraphFakeState> =>
  (await fetch(`${GRAPH_URL}/__fake/state`)).json()
/** What the app sent through the Messenger Send API and the WhatsApp Cloud API, in order. */
export const graphMessages = async (): Promise<SentMessage[]> =>
  (await fetch(`${GRAPH_URL}/__fake/messages`)).json()

/** A Facebook user the Graph fake knows, with these pages and (by default) every permission granted. */
export async function facebookUser({
  pages = [],
  declined = [],
}: { pages?: Array<{ name: string; category?: string }>; declined?: string[] } = {}) {
  const token = `EAAe2e-user-${randomUUID()}`
  const withIds = pages.map((page) => ({
    ...page,
    id: graphId(),
    accessToken: `EAAe2e-page-${randomUUID()}`,
  }))
  await seedGraph({
    users: {
      [token]: {
        id: graphId(),
        permissions: FACEBOOK_PERMISSIONS.filter((p) => !declined.includes(p)),
        declined,
        pages: withIds,
      },
    },
  })
  return { token, pages: withIds }
}

/** A WhatsApp number Embedded Signup will share: its code, business token, WABA and phone number at Graph. */
export async function whatsappNumber(verifiedName: string) {
  const [code, business, wabaId, phoneNumberId] = [
    `e2e-code-${randomUUID()}`,
    `EAAe2e-business-${randomUUID()}`,
    graphId(),
    graphId(),
  ]
  const displayPhoneNumber = `+1 555-${randomInt(100, 999)}-${randomInt(1000, 9999)}`
  await seedGraph({
    whatsappCodes: { [code]: business },
    phoneNumbers: {
      [phoneNumberId]: { verified_name: verifiedName, display_phone_number: displayPhoneNumber, wabaId },
    },
    wabas: { [wabaId]: { name: `${verifiedName} WABA` } },
  })
  return { code, business, wabaId, phoneNumberId, displayPhoneNumber }
}

export async function chooseAddChannel(page: Page, item: 'Facebook Page' | 'WhatsApp Business Account') {
  await page.getByRole('button', { name: 'Add Channel' }).first().click()
  await page.getByRole('menuitem', { name: item }).click()
}

/** POSTs a delivery to the running app's Meta webhook, signed with the e2e app's secret as Meta signs it. */
export const deliverToMetaWebhook = (baseURL: string | undefined, payload: unknown) =>
  deliverSignedWebhook(`${baseURL}/webhooks/meta`, payload, E2E_META_APP.appSecret)
