import { platformReplies } from './platform-reply.server'
import { randomInt, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Job } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversations } from '~/db/schema'
import { handleReplyJob } from '~/jobs/reply.server'
import { receiveMetaWebhook } from '~/services/messages/inbound/meta.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import {
  META_TEST_APP,
  messagesOf,
  startPipeline,
  textUpdate,
  type Pipeline,
  type TestMetaChannel,
} from '../../../tests/setup/pipeline'
import { listConversations } from './inbox.server'

// A Messenger customer's name through the User Profile API of the Graph fake, over HTTP. The receiver stores each
// message; the test runs its reply job (the worker's handler, with the real model and Graph fakes) and sees what
// the job did once it returns: the answer, then the name asked for once; a profile the page may not read, or a
// failed call, leaves the PSID and the answer as it was.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

const noQueue = { send: async () => null } // stored as queued; the test runs the job itself
const person = () => String(randomInt(1_000_000_000, 9_000_000_000))
let mids = 0
const replyJob = (messageId: string): Job<unknown> => ({
  id: randomUUID(),
  name: 'reply',
  data: { messageId },
  expireInSeconds: 60,
  heartbeatSeconds: null,
  retryCount: 0,
  signal: new AbortController().signal,
})

/** A customer's text to the page, received as Meta delivers it, then its reply job run to the end. */
async function customerWrites(page: TestMetaChannel, psid: string, text: string) {
  const platformMessageId = `m_name_${Date.now()}_${++mids}`
  const event = {
    sender: { id: psid },
    recipient: { id: page.platformChannelId },
    timestamp: Date.now(),
    message: { mid: platformMessageId, text },
  }
  const body = {
    object: 'page',
    entry: [{ id: page.platformChannelId, time: Date.now(), messaging: [event] }],
  }
  await receiveMetaWebhook({
    db: p.db,
    boss: noQueue,
    body,
    appId: META_TEST_APP.appId,
    personReplies: platformReplies(p.db),
  })
  const inbound = (await messagesOf(p.db, page.channelId, 'inbound')).find(
    (m) => m.platformMessageId === platformMessageId,
  )
  if (!inbound) throw new Error('the message was not stored')
  await handleReplyJob(p.deps, replyJob(inbound.id))
}

/** The profile reads of this PSID, and the texts sent to the person, as the Graph fake recorded them. */
const profileReads = (psid: string) =>
  p.graph.calls.filter((c) => c.method === 'GET' && c.path === `/${psid}`)
const answers = (psid: string) =>
  p.graph.messages.filter((m) => m.to === psid && m.text !== undefined).map((m) => m.text)
async function conversationOf(page: TestMetaChannel, psid: string) {
  const [row] = await p.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.channelId, page.channelId), eq(conversations.platformChatId, psid)))
  return row
}
const inboxCustomers = async (page: TestMetaChannel) =>
  (await listConversations(page.scope, { page: 1, pageSize: 10 })).items.map((c) => c.customer)

describe('Messenger customer names', () => {
  it('reads the name once, after the first answer, for the inbox and the customer’s messages', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    p.graph.seed({
      profiles: {
        [psid]: {
          pageId: page.platformChannelId,
          first_name: 'Ann',
          last_name: 'Lee',
          profile_pic: 'https://platform-lookaside.fbsbx.com/ann.jpg',
        },
      },
    })

    await customerWrites(page, psid, 'Are you open on Sunday?')
    expect(answers(psid)).toEqual(['Echo: Are you open on Sunday?'])
    expect((await conversationOf(page, psid)).customerName).toBe('Ann Lee')
    const [first] = await messagesOf(p.db, page.channelId, 'inbound')
    expect(first).toMatchObject({ status: 'replied', senderName: 'Ann Lee' })
    // The answer went out before the name was asked for; only the name is asked for, with the page's proof
    // (the token itself goes in the Authorization header, never in the URL).
    const [read] = profileReads(psid)
    const sent = p.graph.calls.findIndex(
      (c) => c.method === 'POST' && c.path === `/${page.platformChannelId}/messages`,
    )
    expect(p.graph.calls.indexOf(read)).toBeGreaterThan(sent)
    expect(read.query).toEqual({ fields: 'first_name,last_name', appsecret_proof: expect.any(String) })

    // The next message keeps the name; nothing asks again.
    await customerWrites(page, psid, 'And on Monday?')
    expect(answers(psid)).toHaveLength(2)
    expect(profileReads(psid)).toHaveLength(1)
    expect((await conversationOf(page, psid)).customerName).toBe('Ann Lee')
    expect(await inboxCustomers(page)).toEqual([{ name: 'Ann Lee', platformId: psid, language: 'en' }])
  })

  it('keeps the PSID when the page may not read the profile, answers anyway, and asks only once', async () => {
    const page = await p.newMetaChannel('facebook')
    const psid = person()
    p.graph.seed({ profiles: { [psid]: { pageId: page.platformChannelId, readable: false } } })
    const logsBefore = p.logs.length

    await customerWrites(page, psid, 'Hello?')
    await customerWrites(page, psid, 'Anyone there?')
    expect(answers(psid)).toEqual(['Echo: Hello?', 'Echo: Anyone there?'])
    expect(profileReads(psid)).toHaveLength(1)
    const conversation = await conversationOf(page, psid)
    expect(conversation.customerName).toBeNull()
    const inbound = await messagesOf(p.db, page.channelId, 'inbound')
    expect(inbound.map((m) => [m.status, m.senderName])).toEqual([
      ['replied', null],
      ['replied', null],
    ])
    expect(await inboxCustomers(page)).toEqual([{ name: null, platformId: psid, language: 'en' }])

    // Said at info with Graph's code, and never with the page's token.
    const logs = p.logs.slice(logsBefore)
    const said = logs.filter((line) => line.includes('Messenger profile not readable'))
    expect(said).toHaveLength(1)
    expect(JSON.parse(said[0])).toMatchObject({
      level: 'info',
      conversationId: conversation.id,
      graphCode: 100,
    })
    expect(logs.join('\n')).not.toContain(page.token)
  })

  it('keeps the PSID when Graph fails or does not know the person', async () => {
    const page = await p.newMetaChannel('facebook')
    const [failing, unknown] = [person(), person()]
    p.graph.seed({ profiles: { [failing]: { pageId: page.platformChannelId, first_name: 'Bo' } } })
    p.graph.enqueue(`/${failing}`, { status: 500 })

    await customerWrites(page, failing, 'Do you deliver?')
    await customerWrites(page, unknown, 'Do you take cards?')
    expect([...answers(failing), ...answers(unknown)]).toEqual([
      'Echo: Do you deliver?',
      'Echo: Do you take cards?',
    ])
    expect([profileReads(failing).length, profileReads(unknown).length]).toEqual([1, 1])
    expect((await conversationOf(page, failing)).customerName).toBeNull()
    expect((await conversationOf(page, unknown)).customerName).toBeNull()
  })

  it('a profile PSID of another page is not read with this page’s token', async () => {
    const [page, other] = [await p.newMetaChannel('facebook'), await p.newMetaChannel('facebook')]
    const psid = person()
    p.graph.seed({ profiles: { [psid]: { pageId: other.platformChannelId, first_name: 'Cy' } } })
    await customerWrites(page, psid, 'Hi there')
    expect(profileReads(psid)).toHaveLength(1)
    expect((await conversationOf(page, psid)).customerName).toBeNull()
  })

  it('asks Graph nothing for a Telegram conversation, whose updates carry the name', async () => {
    const bot = await p.newBot()
    const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
    await receiveTelegramUpdate({ db: p.db, boss: noQueue, channel, body: textUpdate(4242, 'Hi') })
    const [inbound] = await messagesOf(p.db, bot.channelId, 'inbound')
    const callsBefore = p.graph.calls.length
    await handleReplyJob(p.deps, replyJob(inbound.id))
    expect(p.telegram.sentMessages(bot.token).map((m) => m.text)).toEqual(['Echo: Hi'])
    expect(p.graph.calls.slice(callsBefore)).toEqual([])
    expect((await messagesOf(p.db, bot.channelId, 'inbound'))[0].senderName).toBe('Ann Lee')
  })
})
