import { randomUUID } from 'node:crypto'
import { expect, test } from './helpers'
import { deliverSignedWebhook } from '../fakes/graph-server'
import {
  messengerDelivery,
  messengerText,
  pageDelivery,
  wabaDelivery as wabaEntries,
  whatsappChange,
  whatsappText,
} from '../fixtures/meta/deliveries'
import { telegramTextUpdate } from '../fixtures/telegram'
import {
  assignAgent,
  closeDetails,
  connectBot,
  createAgent,
  FAKE_TELEGRAM_URL,
  flip,
  openDetails,
  registerBot,
  signUpWithOrganization,
  telegramCalls,
} from './channel-helpers'
import { routeFakeFacebookSdk } from './facebook-sdk-route'
import { E2E_META_APP } from './meta-app'
import {
  chooseAddChannel,
  deliverToMetaWebhook,
  facebookUser,
  GRAPH_URL,
  graphId,
  graphMessages,
  whatsappNumber,
} from './meta-helpers'

/** A Telegram update from a person in a private chat, as Telegram sends it. */
const textUpdate = (chatId: number, text: string, updateId: number) =>
  telegramTextUpdate({ updateId, messageId: updateId, chatId, text })

/** The Telegram fake POSTs the update to the webhook the app registered, with its secret, and says what we answered. */
async function deliver(token: string, update: unknown): Promise<number> {
  const response = await fetch(`${FAKE_TELEGRAM_URL}/__fake/deliver`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, update }),
  })
  const { status } = (await response.json()) as { status: number }
  return status
}

const sentTexts = async (token: string, chatId: number) =>
  (await telegramCalls(token))
    .filter((call) => call.method === 'sendMessage' && Number(call.params.chat_id) === chatId)
    .map((call) => String(call.params.text))

test('a customer writes to a connected bot and the assigned agent answers, once and in order', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Reply Owner')
  await createAgent(page, 'Front Desk', 'Answers everyone')
  const bot = await registerBot('Front Desk Bot')
  await page.reload()
  await connectBot(page, bot.token)

  const details = await openDetails(page, 'Front Desk Bot')
  await flip(details, 'Webhook Subscription')
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await assignAgent(page, details, 'Front Desk')

  const chatId = 700_000 + Math.floor(Math.random() * 100_000)
  const base = Math.floor(Math.random() * 1_000_000)
  // The first update three times (a redelivery), then two more right after.
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Hello, are you open today?', base))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'And tomorrow?', base + 1))).toBe(200)
  expect(await deliver(bot.token, textUpdate(chatId, 'Thanks!', base + 2))).toBe(200)

  await expect
    .poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 })
    .toEqual(['Echo: Hello, are you open today?', 'Echo: And tomorrow?', 'Echo: Thanks!'])

  // Switched off on the channel: the next message is kept for a person, not answered.
  await flip(details, 'Agent Enabled')
  await expect(details.getByRole('switch', { name: 'Agent Enabled' })).not.toBeChecked()
  expect(await deliver(bot.token, textUpdate(chatId, 'Still there?', base + 3))).toBe(200)
  await page.waitForTimeout(1500)
  expect(await sentTexts(bot.token, chatId)).toHaveLength(3)
})

test('a customer who writes three lines in a row gets one answer that reads them all (the burst wait)', async ({
  page,
}) => {
  await signUpWithOrganization(page, 'Burst Owner')
  await createAgent(page, 'Patient Desk', 'Waits for the customer to finish', { burstWaitSeconds: 2 })
  const bot = await registerBot('Patient Desk Bot')
  await page.reload()
  await connectBot(page, bot.token)
  const details = await openDetails(page, 'Patient Desk Bot')
  await flip(details, 'Webhook Subscription')
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await assignAgent(page, details, 'Patient Desk')

  const chatId = 800_000 + Math.floor(Math.random() * 100_000)
  const base = Math.floor(Math.random() * 1_000_000)
  for (const [i, line] of ['hi', 'I ordered a jacket', "it hasn't arrived"].entries()) {
    expect(await deliver(bot.token, textUpdate(chatId, line, base + i))).toBe(200)
  }
  await expect
    .poll(() => sentTexts(bot.token, chatId), { timeout: 20_000 })
    .toEqual(["Echo: hi\nI ordered a jacket\nit hasn't arrived"])
  // Nothing more comes for the burst's other lines.
  await page.waitForTimeout(2500)
  expect(await sentTexts(bot.token, chatId)).toHaveLength(1)
})

test('Meta’s webhook on the running server: the handshake, and signed deliveries checked before anything is stored', async ({
  baseURL,
}) => {
  const url = `${baseURL}/webhooks/meta`
  const query = (token: string) =>
    new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '424242' })
  const accepted = await fetch(`${url}?${query(E2E_META_APP.verifyToken)}`)
  expect(accepted.status).toBe(200)
  expect(await accepted.text()).toBe('424242')
  expect((await fetch(`${url}?${query('wrong')}`)).status).toBe(403)

  const pageId = graphId()
  const delivery = messengerDelivery(pageId, messengerText(pageId, '1', 'Hi', 'm_1'))
  // Signed with another secret: refused. Signed with the app's: read, and no such page is connected.
  expect((await deliverSignedWebhook(url, delivery, 'not-the-app-secret')).status).toBe(401)
  expect((await deliverToMetaWebhook(baseURL, delivery)).status).toBe(404)
  expect((await deliverToMetaWebhook(baseURL, '{"object":')).status).toBe(400)
})

// Meta: the Graph fake records what the app sent; the fake model says what it was asked.

const FAKE_MODEL_URL = process.env.E2E_FAKE_MODEL_URL
type ModelRequest = { body: { messages?: Array<{ role: string; content: unknown }> } }

const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('')
      : ''

/** The conversations the model was asked to continue, each as role and text lines, in the order they came. */
async function modelPrompts() {
  const requests: ModelRequest[] = await (await fetch(`${FAKE_MODEL_URL}/__fake/requests`)).json()
  return requests.map((request) =>
    (request.body.messages ?? []).map(({ role, content }) => ({ role, text: textOf(content) })),
  )
}

/** The prompts whose last user message is this text: the model was asked to answer it this many times. */
async function promptsAnswering(text: string) {
  return (await modelPrompts()).filter(
    (prompt) => prompt.filter(({ role }) => role === 'user').at(-1)?.text === text,
  )
}

/** What a page or number sent one person through Graph, in order (Messenger's typing indicator included). */
const sentBy = async (from: string, to: string) =>
  (await graphMessages()).filter((message) => message.from === from && message.to === to)

/** Only the texts, with Messenger's messaging_type. */
const repliesTo = async (from: string, to: string) =>
  (await sentBy(from, to))
    .filter((message) => message.text !== undefined)
    .map(({ platform, text, messagingType }) => ({ platform, text, messagingType }))

const echo = (text: string) => `Echo: ${text}`
const POLL = { timeout: 30_000 }

test('Messenger: pages connected through Facebook login answer every message of a signed batch, each sender once', async ({
  page,
  baseURL,
}) => {
  const tag = randomUUID().slice(0, 8)
  const user = await facebookUser({
    pages: [{ name: `Harbor Cafe ${tag}` }, { name: `Harbor Books ${tag}` }],
  })
  const [cafe, books] = user.pages
  await routeFakeFacebookSdk(page, { accessToken: user.token, graphRoot: GRAPH_URL })
  await signUpWithOrganization(page, 'Messenger Owner')
  await createAgent(page, 'Page Helper', 'Answers on Messenger')
  await chooseAddChannel(page, 'Facebook Page')
  await expect(page.getByText(/^2 Facebook pages connected successfully/)).toBeVisible()
  for (const { name } of user.pages) {
    const details = await openDetails(page, name)
    await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
    await assignAgent(page, details, 'Page Helper')
    await closeDetails(details)
  }

  // One delivery, three entries: the cafe with two events of one person, the bookshop, the cafe again.
  const [ann, bob, cy] = [graphId(), graphId(), graphId()]
  const said = {
    ann: [`What time do you open? ${tag}`, `Do you have oat milk? ${tag}`],
    bob: `Is the new novel in stock? ${tag}`,
    cy: `Can I book a table for four? ${tag}`,
  }
  const batch = pageDelivery(
    {
      pageId: cafe.id,
      messaging: [messengerText(cafe.id, ann, said.ann[0]), messengerText(cafe.id, ann, said.ann[1])],
    },
    { pageId: books.id, messaging: [messengerText(books.id, bob, said.bob)] },
    { pageId: cafe.id, messaging: [messengerText(cafe.id, cy, said.cy)] },
  )
  expect((await deliverToMetaWebhook(baseURL, batch)).status).toBe(200)

  const response = (text: string) => ({ platform: 'messenger', text: echo(text), messagingType: 'RESPONSE' })
  await expect.poll(() => repliesTo(cafe.id, ann), POLL).toEqual(said.ann.map(response))
  await expect.poll(() => repliesTo(books.id, bob), POLL).toEqual([response(said.bob)])
  await expect.poll(() => repliesTo(cafe.id, cy), POLL).toEqual([response(said.cy)])
  // Each page answered as itself; nothing crossed to the other page.
  expect(await repliesTo(books.id, ann)).toEqual([])
  expect(await repliesTo(cafe.id, bob)).toEqual([])
  // The fake model answers at once: no "typing..." (shown only once a model has taken half a second).
  const annSaw = await sentBy(cafe.id, ann)
  expect(annSaw.filter((m) => m.senderAction === 'typing_on')).toEqual([])

  // Redelivery: one event three times in a row, another three times at once, then a third message.
  const dan = graphId()
  const redelivered = [`Are you open on Sunday? ${tag}`, `Is there parking nearby? ${tag}`]
  const last = `Thanks, see you then ${tag}`
  const first = pageDelivery({ pageId: cafe.id, messaging: [messengerText(cafe.id, dan, redelivered[0])] })
  for (let i = 0; i < 3; i++) expect((await deliverToMetaWebhook(baseURL, first)).status).toBe(200)
  const second = pageDelivery({
    pageId: cafe.id,
    messaging: [messengerText(cafe.id, dan, redelivered[1])],
  })
  const together = await Promise.all([1, 2, 3].map(() => deliverToMetaWebhook(baseURL, second)))
  expect(together.map((r) => r.status)).toEqual([200, 200, 200])
  const third = pageDelivery({ pageId: cafe.id, messaging: [messengerText(cafe.id, dan, last)] })
  expect((await deliverToMetaWebhook(baseURL, third)).status).toBe(200)

  // A conversation's replies go out in order, so once the third is answered any duplicate would have been sent.
  await expect.poll(() => repliesTo(cafe.id, dan), POLL).toEqual([...redelivered, last].map(response))
  for (const text of redelivered) expect(await promptsAnswering(text)).toHaveLength(1)
  // One stored message each: the third prompt's history holds each of them once.
  const [history] = await promptsAnswering(last)
  expect(history.filter(({ role }) => role === 'user').map(({ text }) => text)).toEqual([
    ...redelivered,
    last,
  ])
  expect(history.filter(({ role }) => role === 'assistant').map(({ text }) => text)).toEqual(
    redelivered.map(echo),
  )
})

type WhatsAppNumber = Awaited<ReturnType<typeof whatsappNumber>>

/** A WhatsApp delivery: one entry per value, each a `messages` change for the number. */
function wabaDelivery(number: WhatsAppNumber, ...values: Array<Record<string, unknown>>) {
  const display = number.displayPhoneNumber.replace(/\D/g, '')
  return wabaEntries(
    number.wabaId,
    ...values.map((value) => [whatsappChange(number.phoneNumberId, value, display)]),
  )
}

const contact = (waId: string, name: string) => ({ profile: { name }, wa_id: waId })

test('WhatsApp: a number connected through Embedded Signup answers a signed batch; receipts and redeliveries get no reply', async ({
  page,
  baseURL,
}) => {
  const tag = randomUUID().slice(0, 8)
  const verifiedName = `Corner Clinic ${tag}`
  const number = await whatsappNumber(verifiedName)
  await routeFakeFacebookSdk(page, {
    signupCode: number.code,
    wabaId: number.wabaId,
    phoneNumberId: number.phoneNumberId,
  })
  await signUpWithOrganization(page, 'WhatsApp Owner')
  await createAgent(page, 'Clinic Helper', 'Answers on WhatsApp')
  await chooseAddChannel(page, 'WhatsApp Business Account')
  await expect(page.getByText(`WhatsApp number ${verifiedName} connected successfully`)).toBeVisible()
  const details = await openDetails(page, verifiedName)
  await expect(details.getByRole('switch', { name: 'Webhook Subscription' })).toBeChecked()
  await assignAgent(page, details, 'Clinic Helper')

  // WhatsApp ids are phone numbers in international format, digits only.
  const [ana, ben] = [`1555${graphId().slice(0, 7)}`, `4477${graphId().slice(0, 8)}`]
  const said = {
    ana: [`Can I move my appointment? ${tag}`, `Tuesday would suit me ${tag}`],
    ben: `Do you take walk-ins? ${tag}`,
  }
  const anaFirst = whatsappText(ana, said.ana[0])
  const batch = wabaDelivery(
    number,
    {
      contacts: [contact(ana, 'Ana'), contact(ben, 'Ben')],
      messages: [anaFirst, whatsappText(ben, said.ben)],
    },
    { contacts: [contact(ana, 'Ana')], messages: [whatsappText(ana, said.ana[1])] },
  )
  expect((await deliverToMetaWebhook(baseURL, batch)).status).toBe(200)

  const text = (body: string) => ({ platform: 'whatsapp', text: echo(body), messagingType: undefined })
  await expect.poll(() => repliesTo(number.phoneNumberId, ana), POLL).toEqual(said.ana.map(text))
  await expect.poll(() => repliesTo(number.phoneNumberId, ben), POLL).toEqual([text(said.ben)])

  // Receipts for the answer Ben got: delivered, then read. They are stored against it, not answered.
  const [answer] = await sentBy(number.phoneNumberId, ben)
  const receipt = (status: string) => ({
    id: answer.id,
    status,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: ben,
    conversation: { id: `conversation-${tag}`, origin: { type: 'service' } },
    pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
  })
  const receipts = wabaDelivery(number, { statuses: [receipt('delivered')] }, { statuses: [receipt('read')] })
  expect((await deliverToMetaWebhook(baseURL, receipts)).status).toBe(200)
  // Ana's first message again, three times at once.
  const again = wabaDelivery(number, { contacts: [contact(ana, 'Ana')], messages: [anaFirst] })
  const together = await Promise.all([1, 2, 3].map(() => deliverToMetaWebhook(baseURL, again)))
  expect(together.map((r) => r.status)).toEqual([200, 200, 200])

  // Then each writes once more: once these are answered, anything the above caused would have been sent.
  const more = { ana: `See you Tuesday ${tag}`, ben: `Thank you ${tag}` }
  const next = wabaDelivery(number, {
    contacts: [contact(ana, 'Ana'), contact(ben, 'Ben')],
    messages: [whatsappText(ana, more.ana), whatsappText(ben, more.ben)],
  })
  expect((await deliverToMetaWebhook(baseURL, next)).status).toBe(200)
  await expect
    .poll(() => repliesTo(number.phoneNumberId, ana), POLL)
    .toEqual([...said.ana, more.ana].map(text))
  await expect.poll(() => repliesTo(number.phoneNumberId, ben), POLL).toEqual([said.ben, more.ben].map(text))
  expect(await promptsAnswering(said.ana[0])).toHaveLength(1)
  // Ben's history: his first message and the answer (now read) once each, then his new one.
  const [history] = await promptsAnswering(more.ben)
  expect(history.filter(({ role }) => role !== 'system')).toEqual([
    { role: 'user', text: said.ben },
    { role: 'assistant', text: echo(said.ben) },
    { role: 'user', text: more.ben },
  ])
})
