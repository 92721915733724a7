import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations } from '~/db/schema'
import { CONVERSATION_TEXTS, PERSON_REPLY_MAX_LENGTH } from '~/lib/conversations/conversations'
import { CONTACT_TEXTS, type Contact } from '~/lib/conversations/contact'
import { SAVED_REPLY_TEXTS, type SavedReplyItem } from '~/lib/conversations/saved-replies'
import { INVALID_ID_MESSAGE, NUL_MESSAGE } from '~/lib/shared/input'
import { platformDeps } from '~/runtime/channel-deps.server'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { assignAgent } from '~/services/channels/channels.server'
import type { ConversationDetail, ConversationSummary } from '~/lib/conversations/conversations'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope, type OrganizationScope } from '~/services/organizations/scope.server'
import { ERROR_STATUS } from '~/utils/errors'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { startTelegramFake, type TelegramFake } from '../../tests/fakes/telegram-server'
import { uniqueEmail } from '../../tests/setup/identity'
import { messagesOf, textUpdate, waitFor } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { connectTestBot, newTestAgent } from '../../tests/setup/tenant'
import * as list from './api.v1.organizations.$orgId.conversations'
import * as view from './api.v1.organizations.$orgId.conversations.$conversationId'
import * as reply from './api.v1.organizations.$orgId.conversations.$conversationId.messages'
import * as retry from './api.v1.organizations.$orgId.conversations.$conversationId.messages.$messageId.retry'
import * as pause from './api.v1.organizations.$orgId.conversations.$conversationId.pause'
import * as resume from './api.v1.organizations.$orgId.conversations.$conversationId.resume'
import * as status from './api.v1.organizations.$orgId.conversations.$conversationId.status'
import * as assignee from './api.v1.organizations.$orgId.conversations.$conversationId.assignee'
import * as labels from './api.v1.organizations.$orgId.conversations.$conversationId.labels'
import * as contact from './api.v1.organizations.$orgId.conversations.$conversationId.contact'
import * as savedReplies from './api.v1.organizations.$orgId.saved-replies'
import * as savedReply from './api.v1.organizations.$orgId.saved-replies.$savedReplyId'
import * as telegramWebhook from './webhooks.telegram.$channelId'

// The Conversations API over real HTTP, in the process as the server boots it (configuration, database, pg-boss,
// the in-process reply worker): customers write to bots of the Telegram fake, whose webhooks reach this process;
// the agent answers through the model fake; the users are the Auth emulator's, with its ID tokens.
let runtime: Runtime
let telegram: TelegramFake
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

const conversation = '^/api/v1/organizations/(?<orgId>[^/]+)/conversations/(?<conversationId>[^/]+)'
beforeAll(async () => {
  ;[telegram, model, http] = await Promise.all([
    startTelegramFake(),
    startOpenAiFake(),
    serveRoutes([
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/conversations$/, list],
      [new RegExp(`${conversation}$`), view],
      [new RegExp(`${conversation}/messages$`), reply],
      [new RegExp(`${conversation}/messages/(?<messageId>[^/]+)/retry$`), retry],
      [new RegExp(`${conversation}/pause$`), pause],
      [new RegExp(`${conversation}/resume$`), resume],
      [new RegExp(`${conversation}/status$`), status],
      [new RegExp(`${conversation}/assignee$`), assignee],
      [new RegExp(`${conversation}/labels$`), labels],
      [new RegExp(`${conversation}/contact$`), contact],
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/saved-replies$/, savedReplies],
      [/^\/api\/v1\/organizations\/(?<orgId>[^/]+)\/saved-replies\/(?<savedReplyId>[^/]+)$/, savedReply],
      [/^\/webhooks\/telegram\/(?<channelId>[^/]+)$/, telegramWebhook],
    ]),
  ])
  booted = await bootRuntime('conversations-api', {
    PUBLIC_URL: http.url,
    TELEGRAM_UPDATES: 'webhook',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([telegram.close(), model.close(), http.close()])
})

type Envelope<T> = {
  success: boolean
  data: T
  message: string | null
  code?: string
  errors?: Record<string, string[]>
  pagination?: { page: number; pageSize: number; total: number }
}
type PauseState = { aiPausedAt: string | null; aiPausedUntil: string | null }
type SentReply = {
  message: { id: string; sequence: number; text: string; status: string; failureReason: string | null }
  sentNow: boolean
  aiPausedUntil: string | null
}
type Call = { body?: unknown; headers?: Record<string, string> }

/** A request to the product API as `token`'s holder (none: unauthenticated), answered with its JSON envelope. */
async function call<T = unknown>(
  token: string | undefined,
  method: string,
  path: string,
  options: Call = {},
) {
  const { body, headers } = options
  const response = await fetch(`${http.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

/** A user of the Auth emulator who owns an organization of their own. */
async function newTenant(name = 'Ada') {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name.toLowerCase()), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: `${name}'s shop` })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  return {
    token: idToken,
    uid: user.firebaseUid,
    /** How the inbox names them: no display name, so their address. */
    name: user.displayName ?? user.email ?? '',
    scope,
    orgId: org.id,
    /** A call below the tenant's own organization. */
    api: <T = unknown>(method: string, path: string, options?: Call) =>
      call<T>(idToken, method, `/organizations/${org.id}${path}`, options),
  }
}

/** A Telegram bot connected in `scope` (its webhook on this process) with an agent answering on it. */
async function newBot(scope: OrganizationScope) {
  const bot = await connectTestBot(scope, telegram, platformDeps(runtime))
  await assignAgent(scope, bot.channelId, { agentId: (await newTestAgent(scope)).id })
  return bot
}

async function conversationOf(channelId: string, chatId: number) {
  const [row] = await runtime.database.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.channelId, channelId), eq(conversations.platformChatId, String(chatId))))
  return row?.id
}

let chats = 900_000
/** A customer writes `texts` to the bot one after another, each answered by the agent; their conversation. */
async function converse(bot: { token: string; channelId: string }, texts: string[], chatId = ++chats) {
  for (const [index, text] of texts.entries()) {
    expect(await telegram.deliverUpdate(bot.token, textUpdate(chatId, text))).toBe(200)
    await waitFor(
      async () => {
        const id = await conversationOf(bot.channelId, chatId)
        return id ? (await storedIn(bot.channelId, id)).map((m) => `${m.status}: ${m.text}`) : []
      },
      (rows) => rows.length === 2 * (index + 1) && rows.at(-1) === `sent: Echo: ${text}`,
    )
  }
  return { chatId, conversationId: (await conversationOf(bot.channelId, chatId)) ?? '' }
}

const sentTo = (token: string, text: string) => telegram.sentMessages(token).filter((m) => m.text === text)
const storedIn = async (channelId: string, conversationId: string) =>
  (await messagesOf(runtime.database.db, channelId)).filter((m) => m.conversationId === conversationId)
const conversationRow = async (id: string) =>
  (await runtime.database.db.select().from(conversations).where(eq(conversations.id, id)))[0]

describe('GET /organizations/{orgId}/conversations', () => {
  it('lists the conversations newest first, a page at a time, by channel, state and words', async () => {
    const ada = await newTenant()
    const [shop, desk] = [await newBot(ada.scope), await newBot(ada.scope)]
    const jacket = await converse(shop, ['Where is my jacket?'])
    const sundays = await converse(shop, ['Do you open on Sundays?'])
    const refund = await converse(desk, ['Refund for order 42'])

    const all = await ada.api<ConversationSummary[]>('GET', '/conversations')
    expect(all.status).toBe(200)
    expect(all.body.data.map((c) => c.id)).toEqual([
      refund.conversationId,
      sundays.conversationId,
      jacket.conversationId,
    ])
    expect(all.body.pagination).toEqual({ page: 1, pageSize: 50, total: 3 })
    expect(all.body.data[2]).toMatchObject({
      channel: { id: shop.channelId, platformName: 'telegram' },
      customer: { name: 'Ann Lee', platformId: String(jacket.chatId) },
      lastMessage: { text: 'Echo: Where is my jacket?', direction: 'outbound' },
      state: 'ai',
      aiPausedUntil: null,
    })

    const second = await ada.api<ConversationSummary[]>('GET', '/conversations?page=2&pageSize=2')
    expect(second.body.data.map((c) => c.id)).toEqual([jacket.conversationId])
    expect(second.body.pagination).toEqual({ page: 2, pageSize: 2, total: 3 })

    const byChannel = await ada.api<ConversationSummary[]>(
      'GET',
      `/conversations?channelId=${desk.channelId}`,
    )
    expect(byChannel.body.data.map((c) => c.id)).toEqual([refund.conversationId])
    const byWords = await ada.api<ConversationSummary[]>('GET', '/conversations?q=sunday')
    expect(byWords.body.data.map((c) => c.id)).toEqual([sundays.conversationId])

    expect((await ada.api('POST', `/conversations/${jacket.conversationId}/pause`)).status).toBe(200)
    const paused = await ada.api<ConversationSummary[]>('GET', '/conversations?state=paused')
    expect(paused.body.data.map((c) => [c.id, c.state])).toEqual([[jacket.conversationId, 'paused']])
    expect(paused.body.pagination?.total).toBe(1)
  })

  it('refuses filters outside the contract with a 400 naming the field', async () => {
    const ada = await newTenant()
    const state = await ada.api('GET', '/conversations?state=asleep')
    expect(state.status).toBe(400)
    expect(state.body).toMatchObject({ success: false, data: null, code: 'VALIDATION_ERROR' })
    expect(Object.keys(state.body.errors ?? {})).toEqual(['query.state'])
    const channel = await ada.api('GET', '/conversations?channelId=shop')
    expect(channel.body).toMatchObject({
      message: INVALID_ID_MESSAGE,
      errors: { 'query.channelId': [INVALID_ID_MESSAGE] },
    })
    expect((await ada.api('GET', '/conversations?pageSize=101')).status).toBe(400)
  })
})

describe('GET /organizations/{orgId}/conversations/{conversationId}', () => {
  it('shows the latest messages oldest first, and the page before a sequence', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['one', 'two', 'three'])

    const latest = await ada.api<ConversationDetail>('GET', `/conversations/${conversationId}?limit=4`)
    expect(latest.status).toBe(200)
    expect(latest.body.data.messages.map((m) => [m.direction, m.text, m.author.kind])).toEqual([
      ['inbound', 'two', 'customer'],
      ['outbound', 'Echo: two', 'ai'],
      ['inbound', 'three', 'customer'],
      ['outbound', 'Echo: three', 'ai'],
    ])
    expect(latest.body.data).toMatchObject({
      id: conversationId,
      hasOlder: true,
      channel: { id: bot.channelId, status: 'active', autoResumeMinutes: 30 },
    })

    const before = latest.body.data.messages[0].sequence
    const older = await ada.api<ConversationDetail>(
      'GET',
      `/conversations/${conversationId}?before=${before}&limit=4`,
    )
    expect(older.body.data.messages.map((m) => m.text)).toEqual(['one', 'Echo: one'])
    expect(older.body.data.hasOlder).toBe(false)

    const everything = await ada.api<ConversationDetail>('GET', `/conversations/${conversationId}`)
    expect(everything.body.data.messages).toHaveLength(6)
    expect(everything.body.data.hasOlder).toBe(false)
    expect((await ada.api('GET', `/conversations/${conversationId}?before=0`)).status).toBe(400)
  })
})

describe('POST /organizations/{orgId}/conversations/{conversationId}/messages', () => {
  it('sends a reply once for one Idempotency-Key (201, then 200 with the same message) and pauses the AI', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId, chatId } = await converse(bot, ['Is anyone there?'])
    const path = `/conversations/${conversationId}/messages`
    const headers = { 'Idempotency-Key': `reply-${randomUUID()}` }
    const text = 'Yes, Ada here. How can I help?'

    const first = await ada.api<SentReply>('POST', path, { body: { text }, headers })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      success: true,
      message: CONVERSATION_TEXTS.sent,
      data: { message: { text, status: 'sent', failureReason: null }, sentNow: true },
    })
    expect(first.body.data.aiPausedUntil).toEqual(expect.any(String))

    const again = await ada.api<SentReply>('POST', path, { body: { text }, headers })
    expect(again.status).toBe(200)
    expect(again.body.message).toBe(CONVERSATION_TEXTS.alreadySent)
    expect(again.body.data.sentNow).toBe(false)
    expect(again.body.data.message.id).toBe(first.body.data.message.id)

    expect(sentTo(bot.token, text)).toEqual([
      expect.objectContaining({ chat: expect.objectContaining({ id: chatId }) }),
    ])
    const shown = await ada.api<ConversationDetail>('GET', `/conversations/${conversationId}`)
    expect(shown.body.data.state).toBe('paused')
    expect(shown.body.data.messages.at(-1)).toMatchObject({
      id: first.body.data.message.id,
      direction: 'outbound',
      text,
      author: { kind: 'person' },
    })

    // Without a key each request is a reply of its own.
    for (let i = 0; i < 2; i++) {
      expect((await ada.api('POST', path, { body: { text: 'Anything else?' } })).status).toBe(201)
    }
    expect(sentTo(bot.token, 'Anything else?')).toHaveLength(2)
  })

  it('refuses an empty, over-long or NUL text and a bad Idempotency-Key with the envelope, storing and sending nothing', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Hello?'])
    const path = `/conversations/${conversationId}/messages`
    const storedBefore = (await storedIn(bot.channelId, conversationId)).length
    const sentBefore = telegram.sentMessages(bot.token).length

    const refusals: [Call, string, string][] = [
      [{ body: { text: '' } }, 'text', CONVERSATION_TEXTS.textRequired],
      [{ body: { text: '   ' } }, 'text', CONVERSATION_TEXTS.textRequired],
      [{ body: {} }, 'text', CONVERSATION_TEXTS.textRequired],
      [{ body: { text: 'x'.repeat(PERSON_REPLY_MAX_LENGTH + 1) } }, 'text', CONVERSATION_TEXTS.textTooLong],
      [{ body: { text: 'a\u0000b' } }, 'text', NUL_MESSAGE],
      [
        { body: { text: 'fine' }, headers: { 'Idempotency-Key': 'has a space' } },
        'headers.Idempotency-Key',
        CONVERSATION_TEXTS.idempotencyKeyInvalid,
      ],
      [
        { body: { text: 'fine' }, headers: { 'Idempotency-Key': 'k'.repeat(201) } },
        'headers.Idempotency-Key',
        CONVERSATION_TEXTS.idempotencyKeyInvalid,
      ],
    ]
    for (const [options, field, message] of refusals) {
      const { status, body } = await ada.api('POST', path, options)
      expect(status).toBe(400)
      expect(body).toEqual({
        success: false,
        data: null,
        message,
        code: 'VALIDATION_ERROR',
        errors: { [field]: [message] },
      })
    }
    expect((await storedIn(bot.channelId, conversationId)).length).toBe(storedBefore)
    expect(telegram.sentMessages(bot.token)).toHaveLength(sentBefore)
    expect((await conversationRow(conversationId)).aiPausedAt).toBeNull()
  })
})

describe('POST .../pause and .../resume', () => {
  it('pauses for the minutes given, or until resumed without them, and resumes', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Can I talk to a person?'])
    const path = `/conversations/${conversationId}`

    const started = Date.now()
    const timed = await ada.api<PauseState>('POST', `${path}/pause`, { body: { minutes: 30 } })
    expect(timed.status).toBe(200)
    expect(timed.body.message).toBe(CONVERSATION_TEXTS.paused)
    const until = Date.parse(timed.body.data.aiPausedUntil ?? '')
    expect(until - started).toBeGreaterThan(29 * 60_000)
    expect(until - started).toBeLessThan(31 * 60_000)
    expect((await ada.api<ConversationDetail>('GET', path)).body.data).toMatchObject({ state: 'paused' })

    const open = await ada.api<PauseState>('POST', `${path}/pause`)
    expect(open.status).toBe(200)
    expect(open.body.data.aiPausedUntil).toBeNull()
    expect(open.body.data.aiPausedAt).toBe(timed.body.data.aiPausedAt)
    expect(
      (await ada.api<PauseState>('POST', `${path}/pause`, { body: {} })).body.data.aiPausedUntil,
    ).toBeNull()

    const bad = await ada.api('POST', `${path}/pause`, { body: { minutes: -5 } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(CONVERSATION_TEXTS.minutesInvalid)

    const resumed = await ada.api<PauseState>('POST', `${path}/resume`)
    expect(resumed.status).toBe(200)
    expect(resumed.body).toMatchObject({
      message: CONVERSATION_TEXTS.resumed,
      data: { aiPausedAt: null, aiPausedUntil: null },
    })
    expect((await ada.api<ConversationDetail>('GET', path)).body.data.state).toBe('ai')
  })
})

describe('POST .../status', () => {
  it('resolves and reopens; the list filters by status; a status that is none is a 400 and changes nothing', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Thanks, all good'])
    const path = `/conversations/${conversationId}`

    const resolved = await ada.api<{ status: string; resolvedAt: string }>('POST', `${path}/status`, {
      body: { status: 'resolved' },
    })
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({
      message: CONVERSATION_TEXTS.resolved,
      data: { status: 'resolved', resolvedAt: expect.any(String) },
    })
    const listed = await ada.api<ConversationSummary[]>('GET', '/conversations?status=resolved')
    expect(listed.body.data.map((c) => [c.id, c.status])).toEqual([[conversationId, 'resolved']])
    expect((await ada.api<ConversationSummary[]>('GET', '/conversations?status=open')).body.data).toEqual([])

    const bad = await ada.api('POST', `${path}/status`, { body: { status: 'closed' } })
    expect([bad.status, bad.body.message]).toEqual([400, CONVERSATION_TEXTS.statusInvalid])
    expect((await ada.api<ConversationDetail>('GET', path)).body.data.status).toBe('resolved')

    const reopened = await ada.api('POST', `${path}/status`, { body: { status: 'open' } })
    expect([reopened.status, reopened.body.message]).toEqual([200, CONVERSATION_TEXTS.reopened])
    expect((await ada.api<ConversationDetail>('GET', path)).body.data.status).toBe('open')
  })
})

describe('POST .../assignee', () => {
  it('assigns to a member and unassigns; the list filters by assignee; anyone else is a 400 and changes nothing', async () => {
    const ada = await newTenant()
    const bob = await newTenant('Bob')
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Can someone call me?'])
    const path = `/conversations/${conversationId}`

    const assigned = await ada.api('POST', `${path}/assignee`, { body: { assigneeUid: ada.uid } })
    expect([assigned.status, assigned.body.message, assigned.body.data]).toEqual([
      200,
      CONVERSATION_TEXTS.assigned(ada.name),
      { assignee: { uid: ada.uid, name: ada.name } },
    ])
    const mine = await ada.api<ConversationSummary[]>('GET', '/conversations?assignee=me')
    expect(mine.body.data.map((c) => [c.id, c.assignee])).toEqual([
      [conversationId, { uid: ada.uid, name: ada.name }],
    ])
    expect(
      (await ada.api<ConversationSummary[]>('GET', `/conversations?assignee=${ada.uid}`)).body.data,
    ).toHaveLength(1)
    expect((await ada.api<ConversationSummary[]>('GET', '/conversations?assignee=none')).body.data).toEqual(
      [],
    )

    // Bob is not a member of Ada's organization; a uid must be one; the body must name someone or null.
    for (const body of [
      { assigneeUid: bob.uid },
      { assigneeUid: 'no such member' },
      {},
      { assigneeUid: 7 },
    ]) {
      const bad = await ada.api('POST', `${path}/assignee`, { body })
      expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    }
    const notMember = await ada.api('POST', `${path}/assignee`, { body: { assigneeUid: bob.uid } })
    expect(notMember.body.message).toBe(CONVERSATION_TEXTS.assigneeNotMember)
    expect((await ada.api<ConversationDetail>('GET', path)).body.data.assignee).toEqual({
      uid: ada.uid,
      name: ada.name,
    })

    const unassigned = await ada.api('POST', `${path}/assignee`, { body: { assigneeUid: null } })
    expect([unassigned.status, unassigned.body.message]).toEqual([200, CONVERSATION_TEXTS.unassigned])
    expect(
      (await ada.api<ConversationSummary[]>('GET', '/conversations?assignee=none')).body.data,
    ).toHaveLength(1)
  })
})

describe('POST .../labels', () => {
  it('sets the labels, the list filters by one, and over 10 or a bad one is a 400 that changes nothing', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['My parcel never came'])
    const path = `/conversations/${conversationId}/labels`
    const set = await ada.api('POST', path, { body: { labels: ['Lost parcel', 'vip'] } })
    expect([set.status, set.body.message, set.body.data]).toEqual([
      200,
      CONVERSATION_TEXTS.labelsSaved,
      { labels: ['lost parcel', 'vip'] },
    ])
    const listed = await ada.api<ConversationSummary[]>('GET', '/conversations?label=vip')
    expect(listed.body.data.map((c) => [c.id, c.labels])).toEqual([[conversationId, ['lost parcel', 'vip']]])
    for (const body of [{ labels: Array.from({ length: 11 }, (_, i) => `l${i}`) }, { labels: ['a/b'] }, {}]) {
      const bad = await ada.api('POST', path, { body })
      expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    }
    expect(
      (await ada.api<ConversationDetail>('GET', `/conversations/${conversationId}`)).body.data.labels,
    ).toEqual(['lost parcel', 'vip'])
  })
})

describe('GET and PATCH .../contact', () => {
  it("shows the customer and keeps the team's notes; notes over 2,000 characters or not text are a 400 that changes nothing", async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Do you deliver on Sundays?'])
    const path = `/conversations/${conversationId}/contact`
    await ada.api('POST', `/conversations/${conversationId}/labels`, { body: { labels: ['vip'] } })
    const shown = await ada.api<Contact>('GET', path)
    expect([shown.status, shown.body.data]).toMatchObject([
      200,
      { conversationId, platformName: 'telegram', notes: '', labels: ['vip'], conversationCount: 1 },
    ])
    const set = await ada.api('PATCH', path, { body: { notes: ' Allergic to nuts ' } })
    expect([set.status, set.body.message, set.body.data]).toEqual([
      200,
      CONTACT_TEXTS.notesSaved,
      { notes: 'Allergic to nuts' },
    ])
    for (const [body, message] of [
      [{ notes: 'x'.repeat(2001) }, CONTACT_TEXTS.notesTooLong],
      [{ notes: 42 }, CONTACT_TEXTS.notesInvalid],
      [{}, CONTACT_TEXTS.notesInvalid],
    ] as const) {
      const bad = await ada.api('PATCH', path, { body })
      expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'VALIDATION_ERROR', message])
    }
    expect((await ada.api<Contact>('GET', path)).body.data.notes).toBe('Allergic to nuts')
  })
})

describe('saved replies', () => {
  it("adds, lists, replaces and deletes the organization's own; a taken shortcut, a text over 4,096 characters or another organization's is refused and changes nothing", async () => {
    const ada = await newTenant('Ada')
    const bob = await newTenant('Bob')
    const added = await ada.api<SavedReplyItem>('POST', '/saved-replies', {
      body: { shortcut: '/Hours', text: 'We open at nine, {{first_name}}.' },
    })
    expect([added.status, added.body.message, added.body.data]).toMatchObject([
      201,
      SAVED_REPLY_TEXTS.created,
      { shortcut: 'hours', text: 'We open at nine, {{first_name}}.' },
    ])
    const id = added.body.data.id
    await ada.api('POST', '/saved-replies', { body: { shortcut: 'thanks', text: 'Thank you!' } })
    for (const [body, message] of [
      [{ shortcut: 'hours', text: 'Again' }, SAVED_REPLY_TEXTS.shortcutTaken('hours')],
      [{ shortcut: 'long', text: 'x'.repeat(4097) }, SAVED_REPLY_TEXTS.textTooLong],
      [{ shortcut: 'no spaces', text: 'x' }, SAVED_REPLY_TEXTS.shortcutInvalid],
    ] as const) {
      const bad = await ada.api('POST', '/saved-replies', { body })
      expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'VALIDATION_ERROR', message])
    }
    const replaced = await ada.api<SavedReplyItem>('PUT', `/saved-replies/${id}`, {
      body: { shortcut: 'opening', text: 'Nine to six.' },
    })
    expect([replaced.status, replaced.body.data]).toEqual([
      200,
      { id, shortcut: 'opening', text: 'Nine to six.' },
    ])

    // Bob's organization does not have Ada's reply; Ada's organization is not Bob's.
    for (const [method, path, body] of [
      ['PUT', `/saved-replies/${id}`, { shortcut: 'bob', text: 'Bob' }],
      ['DELETE', `/saved-replies/${id}`, undefined],
    ] as const) {
      expect((await bob.api(method, path, { body })).status).toBe(404)
      expect((await call(bob.token, method, `/organizations/${ada.orgId}${path}`, { body })).status).toBe(404)
    }
    expect((await call(bob.token, 'GET', `/organizations/${ada.orgId}/saved-replies`)).status).toBe(404)
    expect((await bob.api<SavedReplyItem[]>('GET', '/saved-replies')).body.data).toEqual([])
    const listed = await ada.api<SavedReplyItem[]>('GET', '/saved-replies')
    expect(listed.body.data.map((r) => [r.shortcut, r.text])).toEqual([
      ['opening', 'Nine to six.'],
      ['thanks', 'Thank you!'],
    ])

    const deleted = await ada.api('DELETE', `/saved-replies/${id}`)
    expect([deleted.status, deleted.body.message, deleted.body.data]).toEqual([
      200,
      SAVED_REPLY_TEXTS.deleted,
      { id },
    ])
    expect((await ada.api('DELETE', `/saved-replies/${id}`)).status).toBe(404)
    expect((await ada.api<SavedReplyItem[]>('GET', '/saved-replies')).body.data).toHaveLength(1)
    expect((await call(undefined, 'GET', `/organizations/${ada.orgId}/saved-replies`)).status).toBe(403)
  })
})

describe('POST .../messages/{messageId}/retry', () => {
  it('sends a failed reply again, and refuses a message that has not failed with 409', async () => {
    const ada = await newTenant()
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Are you open?'])
    const path = `/conversations/${conversationId}`
    telegram.enqueue('sendMessage', {
      status: 400,
      description: 'Bad Request: chat not found',
      token: bot.token,
    })

    const failed = await ada.api('POST', `${path}/messages`, { body: { text: 'We open at nine.' } })
    expect(failed.status).toBe(ERROR_STATUS.UPSTREAM_ERROR.status)
    expect(failed.body).toMatchObject({ success: false, code: 'UPSTREAM_ERROR' })
    const stored = (await ada.api<ConversationDetail>('GET', path)).body.data.messages.at(-1)
    expect(stored).toMatchObject({ text: 'We open at nine.', status: 'failed', author: { kind: 'person' } })
    expect(sentTo(bot.token, 'We open at nine.')).toEqual([])

    const again = await ada.api('POST', `${path}/messages/${stored?.id}/retry`)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ message: CONVERSATION_TEXTS.sentAgain, data: { requeued: false } })
    expect(sentTo(bot.token, 'We open at nine.')).toHaveLength(1)

    const twice = await ada.api('POST', `${path}/messages/${stored?.id}/retry`)
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message: CONVERSATION_TEXTS.notRetryable,
    })
    const answered = (await storedIn(bot.channelId, conversationId)).find((m) => m.direction === 'inbound')
    expect((await ada.api('POST', `${path}/messages/${answered?.id}/retry`)).status).toBe(409)
    expect(sentTo(bot.token, 'We open at nine.')).toHaveLength(1)

    // A message of another conversation of the organization is not found under this one.
    const other = await converse(bot, ['Another chat'])
    const elsewhere = await ada.api(
      'POST',
      `/conversations/${other.conversationId}/messages/${stored?.id}/retry`,
    )
    expect(elsewhere.status).toBe(404)
  })
})

describe('tenant isolation and authentication', () => {
  it("answers 404 to a member of another organization for every endpoint and changes nothing of the owner's", async () => {
    const ada = await newTenant('Ada')
    const bob = await newTenant('Bob')
    const bot = await newBot(ada.scope)
    const { conversationId } = await converse(bot, ['Private matter'])
    // Ada's conversation, paused by her reply, with a reply that failed.
    telegram.enqueue('sendMessage', {
      status: 400,
      description: 'Bad Request: chat not found',
      token: bot.token,
    })
    expect(
      (await ada.api('POST', `/conversations/${conversationId}/messages`, { body: { text: 'Hm?' } })).status,
    ).toBe(502)
    const failedId = (await storedIn(bot.channelId, conversationId)).at(-1)?.id
    const before = {
      row: await conversationRow(conversationId),
      stored: await storedIn(bot.channelId, conversationId),
    }
    const sentBefore = telegram.sentMessages(bot.token).length
    expect(before.row.aiPausedAt).not.toBeNull()

    const requests: [string, string, Call?][] = [
      ['GET', `/conversations/${conversationId}`],
      ['POST', `/conversations/${conversationId}/messages`, { body: { text: 'from Bob' } }],
      [
        'POST',
        `/conversations/${conversationId}/messages`,
        { body: { text: 'from Bob' }, headers: { 'Idempotency-Key': 'bob-1' } },
      ],
      ['POST', `/conversations/${conversationId}/pause`, { body: { minutes: 5 } }],
      ['POST', `/conversations/${conversationId}/pause`],
      ['POST', `/conversations/${conversationId}/resume`],
      ['POST', `/conversations/${conversationId}/status`, { body: { status: 'resolved' } }],
      ['POST', `/conversations/${conversationId}/assignee`, { body: { assigneeUid: null } }],
      ['POST', `/conversations/${conversationId}/labels`, { body: { labels: ['bob'] } }],
      ['GET', `/conversations/${conversationId}/contact`],
      ['PATCH', `/conversations/${conversationId}/contact`, { body: { notes: 'from Bob' } }],
      ['POST', `/conversations/${conversationId}/messages/${failedId}/retry`],
    ]
    // Under Bob's own organization: Ada's conversation is not there.
    for (const [method, path, options] of requests) {
      const { status, body } = await bob.api(method, path, options)
      expect([method, path, status, body.code]).toEqual([method, path, 404, 'NOT_FOUND'])
    }
    // Under Ada's organization, which Bob is not in: the organization is not there (nor its list).
    for (const [method, path, options] of [...requests, ['GET', '/conversations'] as const]) {
      const { status, body } = await call(bob.token, method, `/organizations/${ada.orgId}${path}`, options)
      expect([method, path, status, body.code]).toEqual([method, path, 404, 'NOT_FOUND'])
    }
    // Bob's list shows nothing of Ada's, even filtered by her channel.
    const bobs = await bob.api<ConversationSummary[]>('GET', `/conversations?channelId=${bot.channelId}`)
    expect([bobs.status, bobs.body.data, bobs.body.pagination?.total]).toEqual([200, [], 0])

    expect(await conversationRow(conversationId)).toEqual(before.row)
    expect(await storedIn(bot.channelId, conversationId)).toEqual(before.stored)
    expect(telegram.sentMessages(bot.token)).toHaveLength(sentBefore)
  })

  it('refuses a caller without a valid token on every endpoint, and an id that is not one with 400', async () => {
    const ada = await newTenant()
    const id = randomUUID()
    const paths: [string, string][] = [
      ['GET', '/conversations'],
      ['GET', `/conversations/${id}`],
      ['POST', `/conversations/${id}/messages`],
      ['POST', `/conversations/${id}/pause`],
      ['POST', `/conversations/${id}/resume`],
      ['POST', `/conversations/${id}/messages/${id}/retry`],
      ['GET', `/conversations/${id}/contact`],
    ]
    for (const [method, path] of paths) {
      const url = `/organizations/${ada.orgId}${path}`
      const options = method === 'POST' ? { body: { text: 'hi' } } : {}
      const missing = await call(undefined, method, url, options)
      expect([path, missing.status, missing.body.code]).toEqual([path, 403, 'AUTH_TOKEN_MISSING'])
      const forged = await call('not-a-token', method, url, options)
      expect([path, forged.status, forged.body.code]).toEqual([path, 401, 'AUTH_TOKEN_INVALID'])
    }
    for (const [method, path] of [
      ['GET', '/conversations/not-a-uuid'],
      ['POST', '/conversations/not-a-uuid/pause'],
      ['POST', `/conversations/${id}/messages/not-a-uuid/retry`],
    ]) {
      const { status, body } = await ada.api(method, path)
      expect([path, status, body.message]).toEqual([path, 400, INVALID_ID_MESSAGE])
    }
    expect((await ada.api('GET', `/conversations/${id}`)).body).toMatchObject({
      code: 'NOT_FOUND',
      message: CONVERSATION_TEXTS.notFound,
    })
  })
})
