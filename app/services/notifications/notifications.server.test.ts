import { randomUUID } from 'node:crypto'
import { eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listenForNotifications } from '~/db/listen.server'
import {
  channels,
  memberships,
  notificationDeliveries,
  notificationEvents,
  notifications,
  users,
} from '~/db/schema'
import webpush from 'web-push'
import { createSmtpMailer } from '~/integrations/email/mailer.server'
import { createPushSender, type PushSender } from '~/integrations/push/web-push.server'
import {
  NOTIFICATION_EVENTS_CHANNEL,
  startNotificationWorker,
  type NotificationWorker,
} from '~/jobs/notifications.server'
import { NOTIFICATION_FOLD_MS, notificationPreferencesSchema } from '~/lib/notifications/notifications'
import { assignConversation } from '~/services/conversations/assignment.server'
import { pauseConversation } from '~/services/conversations/takeover.server'
import { handOver } from '~/services/messages/reply/queries.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
} from '~/services/messages/inbound/telegram.server'
import { requireOrganizationScope, type OrganizationScope } from '~/services/organizations/scope.server'
import { createLogger } from '~/utils/logger.server'
import { startSmtpFake, type SmtpFake } from '../../../tests/fakes/smtp-server'
import { startWebPushFake, type WebPushFake } from '../../../tests/fakes/web-push-server'
import {
  messagesOf,
  startPipeline,
  textUpdate,
  waitFor,
  waitForSettled,
  type Pipeline,
  type TestBot,
} from '../../../tests/setup/pipeline'
import { newTestUser } from '../../../tests/setup/scope'
import { listNotifications, markNotificationsRead } from './bell.server'
import { deliverDueNotifications } from './deliver.server'
import { fanOutNotificationEvents } from './fan-out.server'
import { getNotificationPreferences, updateNotificationPreferences } from './preferences.server'
import { countPushSubscriptions, savePushSubscription } from './push.server'
import { sendInvitationEmails } from './invitation-email.server'
import { createTelegramLinkCode, getTelegramAlerts, unlinkTelegramAlerts } from './telegram-alerts.server'
import { claimTelegramPolling } from '~/services/messages/inbound/telegram-polling.server'
import { inviteMember } from '~/services/organizations/invitations.server'

// Telling a person (issue 35) through the real database, the Telegram and model fakes and a local SMTP server.
let p: Pipeline
let smtp: SmtpFake
let pushService: WebPushFake
let pushSender: PushSender
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:alerts@example.com' }
const appUrl = 'https://app.replypilot.example.com'
const logger = createLogger({ level: 'warn', sink: () => undefined })
beforeAll(async () => {
  ;[p, smtp, pushService] = await Promise.all([startPipeline(), startSmtpFake(), startWebPushFake()])
  pushSender = createPushSender({ vapid, allowPrivateHosts: true, ca: pushService.ca })
})
afterAll(async () => {
  await pushService.close()
  await smtp.close()
  await p.close()
})

let chats = 910_000
async function receive(bot: TestBot, text: string, chatId = ++chats) {
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  await receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
  const inbound = (await messagesOf(p.db, bot.channelId, 'inbound')).at(-1)
  if (!inbound) throw new Error('not stored')
  return { chatId, conversationId: inbound.conversationId }
}

/** A second member of the bot's organization, with their scope. */
async function addMember(bot: TestBot, name = 'Bea') {
  const user = await newTestUser(p.db, name)
  await p.db
    .insert(memberships)
    .values({ organizationId: bot.scope.organizationId, userId: user.id, role: 'member' })
  const scope = await requireOrganizationScope({
    db: p.db,
    userId: user.id,
    organizationId: bot.scope.organizationId,
  })
  return { user, scope }
}

const mailsTo = (email: string | null) => smtp.mails.filter((m) => m.to.includes(email ?? '-'))
const ownerEmail = async (scope: OrganizationScope) => {
  const [row] = await p.db.select({ email: users.email }).from(users).where(eq(users.id, scope.userId))
  return row.email
}
const telegramDeps = () => ({ client: p.deps.telegram, encryptionKey: p.deps.encryptionKey })

/** The texts the bot sent to a chat. */
const sentTo = (bot: TestBot, chatId: number) =>
  p.telegram.calls
    .filter(
      (c) =>
        c.method === 'sendMessage' && c.token === bot.token && String(c.params.chat_id) === String(chatId),
    )
    .map((c) => String(c.params.text))

const botUsername = async (bot: TestBot) => {
  const [row] = await p.db
    .select({ metadata: channels.metadata })
    .from(channels)
    .where(eq(channels.id, bot.channelId))
  return row.metadata.username
}

const memberChatsOf = async (bot: TestBot) => {
  const [row] = await p.db
    .select({ chats: channels.memberChatIds })
    .from(channels)
    .where(eq(channels.id, bot.channelId))
  return row.chats
}

/** The member opens the bot with their code, as Telegram delivers it: their chat becomes theirs for alerts. */
async function linkTelegram(bot: TestBot, scope: OrganizationScope, chatId = ++chats) {
  const { code, url } = await createTelegramLinkCode(scope, bot.channelId)
  expect(url).toBe(`https://t.me/${await botUsername(bot)}?start=${code}`)
  const channel = await authenticateTelegramWebhook(p.db, bot.channelId, bot.secret)
  const result = await receiveTelegramUpdate({
    db: p.db,
    boss: p.boss,
    channel,
    body: textUpdate(chatId, `/start ${code}`),
  })
  expect(result.stored).toBe(false)
  return chatId
}

const pendingEvents = () =>
  p.db.select().from(notificationEvents).where(isNull(notificationEvents.processedAt))

describe('through the worker', () => {
  let worker: NotificationWorker
  beforeAll(async () => {
    worker = await startNotificationWorker({
      db: p.db,
      mailer: createSmtpMailer({ smtpUrl: smtp.url, from: 'ReplyPilot <alerts@example.com>' }),
      push: pushSender,
      telegram: telegramDeps(),
      appUrl,
      logger,
      listen: (handlers) =>
        listenForNotifications(
          p.handle,
          { channel: NOTIFICATION_EVENTS_CHANNEL, databaseUrl: process.env.DATABASE_URL, logger },
          { notification: () => handlers.notification(), reconnected: handlers.reconnected },
        ),
    })
  })
  afterAll(() => worker.stop())

  it('a handoff: one email to the owner naming the customer, channel, reason and last message, with the link; one push, one Telegram alert, one item in the bell', async () => {
    const bot = await p.newBot()
    const phone = pushService.newSubscription()
    await savePushSubscription(p.db, bot.scope.userId, phone)
    const ownersChat = await linkTelegram(bot, bot.scope)
    const tag = `notify-${chats + 1}`
    p.model.enqueue({
      match: tag,
      toolCall: { name: 'handoff', arguments: { reason: 'The customer asked for a refund' } },
    })
    const started = Date.now()
    const { conversationId } = await receive(bot, `${tag} I want my money back`)
    await waitForSettled(p.db, bot.channelId)
    const to = await ownerEmail(bot.scope)
    await waitFor(
      async () => mailsTo(to),
      (mails) => mails.length === 1,
    )
    expect(Date.now() - started).toBeLessThan(60_000)
    const [mail] = mailsTo(to)
    expect(mail.subject).toBe('Ann Lee needs a person')
    expect(mail.text).toContain('Why: The agent handed over: The customer asked for a refund')
    expect(mail.text).toContain(`Last message: “${tag} I want my money back”`)
    expect(mail.text).toContain(`Open the conversation: ${appUrl}/conversations/${conversationId}`)
    expect(mail.html).toContain(`href="${appUrl}/conversations/${conversationId}"`)
    // The hello and the alert (in either order: one worker round may take both), and the push, each once.
    const pushes = () => pushService.received.filter((r) => r.endpoint === phone.endpoint)
    await waitFor(
      async () => [sentTo(bot, ownersChat), pushes()] as const,
      ([sent, pushed]) => sent.length === 2 && pushed.length === 1,
    )
    expect(sentTo(bot, ownersChat).sort()).toEqual([
      [
        'Ann Lee needs a person',
        'On Support (Org)',
        'Why: The agent handed over: The customer asked for a refund',
        `Last message: “${tag} I want my money back”`,
        `${appUrl}/conversations/${conversationId}`,
      ].join('\n'),
      'Done: you will get ReplyPilot alerts for Org in this chat. To stop them, unlink Telegram in your notification settings.',
    ])

    const bell = await listNotifications(bot.scope)
    expect(bell.unread).toBe(1)
    expect(bell.items).toEqual([
      expect.objectContaining({
        event: 'needs_attention',
        title: 'Ann Lee needs a person',
        conversationId,
        read: false,
        events: 1,
      }),
    ])
    expect(bell.items[0].body).toContain(
      'On Support · Why: The agent handed over: The customer asked for a refund',
    )

    // A second event within 10 minutes folds into it: no second email, the item counts two.
    const { scope: bea } = await addMember(bot)
    await assignConversation(bea, conversationId, (await bellOwnerUid(bot.scope)) ?? '')
    await waitFor(pendingEvents, (rows) => rows.length === 0)
    await worker.runOnce()
    expect(mailsTo(to)).toHaveLength(1)
    expect(sentTo(bot, ownersChat)).toHaveLength(2)
    expect(pushes()).toHaveLength(1)
    const folded = await listNotifications(bot.scope)
    expect(folded.items).toHaveLength(1)
    expect(folded.items[0]).toMatchObject({ event: 'assigned', events: 2, read: false })
  })
})

async function bellOwnerUid(scope: OrganizationScope) {
  const [row] = await p.db.select({ uid: users.firebaseUid }).from(users).where(eq(users.id, scope.userId))
  return row?.uid
}

// The rules, one round at a time (no worker: each test says when the round runs, and at what time).
describe('who is told, and when', () => {
  const mailer = () => createSmtpMailer({ smtpUrl: smtp.url, from: 'alerts@example.com' })
  const round = async (now = new Date(), email = true) => {
    while (await fanOutNotificationEvents(p.db, { email, now })) {
      // every batch
    }
    return deliverDueNotifications(
      { db: p.db, mailer: mailer(), push: pushSender, telegram: telegramDeps(), appUrl, logger },
      { now },
    )
  }
  // On PostgreSQL, earlier test files of this worker share the database: what they left is sent first, so that
  // each round below counts only its own test's deliveries.
  beforeAll(() => round(new Date(Date.now() + 24 * 60 * 60_000)))

  it('an unassigned conversation tells every member; an assigned one its assignee; nobody of what they did', async () => {
    const bot = await p.newBot({ agent: false })
    const { user: bea, scope: beaScope } = await addMember(bot)
    const first = await receive(bot, 'hello')
    await handOver(p.db, first.conversationId, 'Asked for a person')
    await round()
    expect((await listNotifications(bot.scope)).unread).toBe(1)
    expect((await listNotifications(beaScope)).unread).toBe(1)
    expect(mailsTo(bea.email)).toHaveLength(1)

    // Bea takes the second herself: nobody is told of that; when it needs a person, only she is.
    const second = await receive(bot, 'hello again')
    await assignConversation(beaScope, second.conversationId, bea.firebaseUid)
    await handOver(p.db, second.conversationId, 'Asked again')
    await round()
    expect((await listNotifications(bot.scope)).unread).toBe(1)
    const beas = await listNotifications(beaScope)
    expect(beas.items.map((i) => [i.conversationId, i.event])).toEqual([
      [second.conversationId, 'needs_attention'],
      [first.conversationId, 'needs_attention'],
    ])
    // Each sees only their own, and marking another's id read changes nothing.
    const ownersId = (await listNotifications(bot.scope)).items[0].id
    expect(await markNotificationsRead(beaScope, [ownersId])).toEqual({ unread: 2 })
    expect((await listNotifications(bot.scope)).unread).toBe(1)
    expect(await markNotificationsRead(beaScope, 'all')).toEqual({ unread: 0 })
    expect((await listNotifications(bot.scope)).unread).toBe(1)
  })

  it('a customer who writes while the assignee answers tells the assignee; the AI’s own conversations tell nobody', async () => {
    const bot = await p.newBot({ agent: false })
    const { user: bea, scope: beaScope } = await addMember(bot)
    const quiet = await receive(bot, 'first')
    await round()
    await receive(bot, 'second', quiet.chatId)
    await round()
    expect((await listNotifications(bot.scope)).unread).toBe(0)

    await assignConversation(bot.scope, quiet.conversationId, bea.firebaseUid)
    await pauseConversation(beaScope, quiet.conversationId, {}, async () => undefined)
    await round(new Date(Date.now() + NOTIFICATION_FOLD_MS + 1000))
    await receive(bot, 'are you there?', quiet.chatId)
    await round(new Date(Date.now() + 2 * NOTIFICATION_FOLD_MS + 2000))
    const items = (await listNotifications(beaScope)).items
    expect(items.map((i) => i.event)).toEqual(['customer_wrote', 'assigned'])
    expect(items[0].title).toBe('Ann Lee wrote again')
  })

  it('choices: no email for an event turned off, the app item stays; without email set up none is made', async () => {
    const bot = await p.newBot({ agent: false })
    const to = await ownerEmail(bot.scope)
    await updateNotificationPreferences(p.db, bot.scope.userId, {
      choices: { needs_attention: { email: false } },
    })
    expect((await getNotificationPreferences(p.db, bot.scope.userId)).choices.needs_attention).toEqual({
      app: true,
      email: false,
      push: true,
      telegram: true,
    })
    const one = await receive(bot, 'one')
    await handOver(p.db, one.conversationId, 'Needs a person')
    await round()
    expect(mailsTo(to)).toHaveLength(0)
    expect((await listNotifications(bot.scope)).unread).toBe(1)

    await updateNotificationPreferences(p.db, bot.scope.userId, {
      choices: { needs_attention: { email: true } },
    })
    const two = await receive(bot, 'two')
    await handOver(p.db, two.conversationId, 'Needs a person')
    await round(new Date(), false)
    const deliveries = await p.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, bot.scope.userId))
    expect(deliveries).toHaveLength(0)
    expect((await listNotifications(bot.scope)).unread).toBe(2)
  })

  it('quiet hours: nothing by email until they end, then one digest of what came meanwhile', async () => {
    const bot = await p.newBot({ agent: false })
    const to = await ownerEmail(bot.scope)
    const now = new Date('2026-11-28T23:30:00Z')
    await updateNotificationPreferences(p.db, bot.scope.userId, {
      quietHours: { start: '22:00', end: '07:00' },
      timeZone: 'Europe/Lisbon',
    })
    for (const text of ['late one', 'late two']) {
      const { conversationId } = await receive(bot, text)
      await handOver(p.db, conversationId, `Help with ${text}`)
    }
    await round(now)
    expect(mailsTo(to)).toHaveLength(0)
    expect((await listNotifications(bot.scope)).unread).toBe(2)
    await round(new Date('2026-11-29T06:59:00Z'))
    expect(mailsTo(to)).toHaveLength(0)

    await round(new Date('2026-11-29T07:00:00Z'))
    const [digest] = mailsTo(to)
    expect(mailsTo(to)).toHaveLength(1)
    expect(digest.subject).toBe('2 conversations and channels need you')
    expect(digest.text).toContain('Why: Help with late one')
    expect(digest.text).toContain('Why: Help with late two')
  })

  it('a refused email is sent once later; a delivery a dead process left mid-send is never sent again', async () => {
    const bot = await p.newBot({ agent: false })
    const to = await ownerEmail(bot.scope)
    const { conversationId } = await receive(bot, 'refused')
    await handOver(p.db, conversationId, 'Refused at first')
    smtp.refuseNext(1)
    const now = new Date()
    expect(await round(now)).toEqual({ sent: 0, failed: 1 })
    expect(await round(new Date(now.getTime() + 10_000))).toEqual({ sent: 0, failed: 0 })
    expect(await round(new Date(now.getTime() + 31_000))).toEqual({ sent: 1, failed: 0 })
    expect(mailsTo(to)).toHaveLength(1)

    const other = await receive(bot, 'mid-send')
    await handOver(p.db, other.conversationId, 'Left mid-send')
    await fanOutNotificationEvents(p.db, { email: true })
    const [left] = await p.db
      .update(notificationDeliveries)
      .set({ status: 'sending' })
      .where(eq(notificationDeliveries.status, 'pending'))
      .returning()
    expect(left.userId).toBe(bot.scope.userId)
    expect(await round(new Date(Date.now() + 3_600_000))).toEqual({ sent: 0, failed: 0 })
    expect(mailsTo(to)).toHaveLength(1)
  })

  it('preferences: an unknown event is refused; choices merge an event at a time', async () => {
    expect(
      notificationPreferencesSchema.safeParse({ choices: { nope: { app: true } } }).error?.issues[0].message,
    ).toBe('Unknown notification event')
    const user = await newTestUser(p.db)
    expect((await getNotificationPreferences(p.db, user.id)).choices.assigned).toEqual({
      app: true,
      email: true,
      push: true,
      telegram: true,
    })
    await updateNotificationPreferences(p.db, user.id, { choices: { assigned: { app: false } } })
    const after = await updateNotificationPreferences(p.db, user.id, {
      choices: { assigned: { email: false }, channel_attention: { email: true } },
    })
    expect(after.choices.assigned).toEqual({ app: false, email: false, push: true, telegram: true })
    expect(after.choices.channel_attention).toEqual({ app: true, email: true, push: false, telegram: false })
    expect(after.quietHours).toBeNull()
  })

  it('a channel whose token dies tells its owners, not its members', async () => {
    const bot = await p.newBot({ agent: false })
    const { scope: beaScope } = await addMember(bot)
    await p.db.update(channels).set({ healthProblem: 'token_invalid' }).where(eq(channels.id, bot.channelId))
    await round()
    const [item] = (await listNotifications(bot.scope)).items
    expect(item).toMatchObject({ event: 'channel_attention', channelId: bot.channelId })
    expect(item.title).toMatch(/needs attention$/)
    expect((await listNotifications(beaScope)).unread).toBe(0)
    expect(await p.db.select().from(notifications).where(eq(notifications.userId, beaScope.userId))).toEqual(
      [],
    )
  })

  it('push: every browser of the member gets it, decrypted as sent; one that unsubscribed is forgotten; a refused email holds up no push', async () => {
    const bot = await p.newBot({ agent: false })
    const to = await ownerEmail(bot.scope)
    const [phone, laptop] = [pushService.newSubscription(), pushService.newSubscription()]
    await savePushSubscription(p.db, bot.scope.userId, phone)
    await savePushSubscription(p.db, bot.scope.userId, laptop)
    pushService.expire(laptop.endpoint)
    smtp.refuseNext(1)
    const { conversationId } = await receive(bot, 'push me')
    await handOver(p.db, conversationId, 'Wants a person')
    expect(await round()).toEqual({ sent: 1, failed: 1 })
    const pushes = pushService.received.filter((r) => r.endpoint === phone.endpoint)
    expect(pushes).toHaveLength(1)
    expect(JSON.parse(pushes[0].payload)).toEqual({
      title: 'Ann Lee needs a person',
      body: 'Wants a person · “push me”',
      url: `/conversations/${conversationId}`,
      tag: conversationId,
    })
    expect(pushes[0].vapidSubject).toBe('mailto:alerts@example.com')
    expect(await countPushSubscriptions(p.db, bot.scope.userId)).toBe(1)
    expect(mailsTo(to)).toHaveLength(0)
    // The email goes on its own retry; the push is not sent again with it.
    expect(await round(new Date(Date.now() + 31_000))).toEqual({ sent: 1, failed: 0 })
    expect(mailsTo(to)).toHaveLength(1)
    expect(pushService.received.filter((r) => r.endpoint === phone.endpoint)).toHaveLength(1)
  })

  it('push refuses an endpoint on a private address unless told otherwise (tests)', async () => {
    const strict = createPushSender({ vapid })
    await expect(strict.send(pushService.newSubscription(), '{}', { ttlSeconds: 60 })).rejects.toThrow(
      'The push address is not a public address',
    )
  })

  it('Telegram: a member links with a one-time code; their chat is never a customer’s; alerts come from that bot, per their choice; unlinking or leaving ends it', async () => {
    const bot = await p.newBot({ agent: false })
    const other = await p.newBot({ agent: false })
    const { user: bea, scope: beaScope } = await addMember(bot)
    const send = async (target: TestBot, chatId: number, text: string) => {
      const channel = await authenticateTelegramWebhook(p.db, target.channelId, target.secret)
      return receiveTelegramUpdate({ db: p.db, boss: p.boss, channel, body: textUpdate(chatId, text) })
    }

    // A customer's own deep link, and our code sent to another bot, are customer messages.
    expect((await send(bot, ++chats, '/start spring-sale')).stored).toBe(true)
    // Another organization's bot cannot be chosen.
    await expect(createTelegramLinkCode(beaScope, other.channelId)).rejects.toThrow(
      'Choose one of your organization’s Telegram bots',
    )
    const { code } = await createTelegramLinkCode(beaScope, bot.channelId)
    expect((await send(other, ++chats, `/start ${code}`)).stored).toBe(true)
    expect(await getTelegramAlerts(beaScope)).toMatchObject({
      bots: [{ id: bot.channelId, name: `@${await botUsername(bot)}` }],
      link: { linked: false, telegramName: null },
    })

    // The code links once; from then on that chat stores nothing, on webhooks and long polling alike.
    const beasChat = ++chats
    expect((await send(bot, beasChat, `/start ${code}`)).stored).toBe(false)
    expect(await memberChatsOf(bot)).toEqual([String(beasChat)])
    expect(await getTelegramAlerts(beaScope)).toMatchObject({
      link: { linked: true, telegramName: 'Ann Lee (@ann)' },
    })
    expect((await send(bot, beasChat, 'hello bot')).stored).toBe(false)
    expect((await send(bot, ++chats, `/start ${code}`)).stored).toBe(true)
    const lease = { channelId: bot.channelId, workerId: `w-${beasChat}`, leaseSeconds: 30 }
    expect(await claimTelegramPolling(p.db, lease)).toEqual([String(beasChat)])

    // An expired code links nothing, and is nobody's message either.
    const { scope: cyd } = await addMember(bot, 'Cyd')
    const late = await createTelegramLinkCode(cyd, bot.channelId, new Date(Date.now() - 31 * 60_000))
    const cydsChat = ++chats
    expect((await send(bot, cydsChat, `/start ${late.code}`)).stored).toBe(false)
    expect(await memberChatsOf(bot)).toEqual([String(beasChat)])

    // Bea's alerts: needs-attention by default, customer-wrote only once she ticks it.
    const first = await receive(bot, 'where is my order')
    await handOver(p.db, first.conversationId, 'Asked for a person')
    await round()
    expect(sentTo(bot, beasChat)).toEqual([expect.stringMatching(/^Ann Lee needs a person\n/)])
    expect(sentTo(other, beasChat)).toEqual([])
    await updateNotificationPreferences(p.db, bea.id, { choices: { needs_attention: { telegram: false } } })
    const second = await receive(bot, 'hello again')
    await handOver(p.db, second.conversationId, 'Asked again')
    await round()
    expect(sentTo(bot, beasChat)).toHaveLength(1)

    // Unlinked: the chat is a customer's again; having left, Bea's link and chat are gone with her membership.
    await unlinkTelegramAlerts(beaScope)
    expect(await memberChatsOf(bot)).toEqual([])
    expect((await send(bot, beasChat, 'I am a customer now')).stored).toBe(true)
    await linkTelegram(bot, beaScope, ++chats)
    expect(await memberChatsOf(bot)).toHaveLength(1)
    await p.db.delete(memberships).where(eq(memberships.userId, bea.id))
    expect(await memberChatsOf(bot)).toEqual([])
  })

  it('an invitation by email is emailed to that address once, saying how to accept; one by uid is not', async () => {
    const bot = await p.newBot({ agent: false })
    const address = `invitee-${randomUUID()}@example.com`
    await inviteMember(bot.scope, { email: address })
    const uma = await newTestUser(p.db, 'Uma')
    await inviteMember(bot.scope, { uid: uma.firebaseUid })
    const deps = { db: p.db, mailer: mailer(), appUrl, logger }
    await sendInvitationEmails(deps)
    await sendInvitationEmails(deps)
    const mails = mailsTo(address)
    expect(mails).toHaveLength(1)
    expect(mails[0].subject).toBe('Ada invited you to Org on ReplyPilot')
    expect(mails[0].text).toContain(
      `Sign in or create your account with ${address}, confirm the address, then accept: ${appUrl}/organization`,
    )
    expect(mailsTo(uma.email)).toHaveLength(0)
  })
})
