/**
 * The notifications' outbox under a crash (issue 35, docs/decisions/068): a real worker process sends the email of
 * a conversation that needs a person and is killed with SIGKILL once the SMTP server has the mail, before the
 * server's answer reaches it. A second worker started afterwards must not send that email again: the delivery was
 * marked `sending` before the send, and nothing takes it back.
 *
 * PostgreSQL only (separate processes), in a database of its own (see drill-rig.ts).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels, conversations, memberships, notificationDeliveries, users } from '~/db/schema'
import { handOver } from '~/services/messages/reply/queries.server'
import { startSmtpFake, type SmtpFake } from '../fakes/smtp-server'
import { startDrill, type Drill } from './drill-rig'

let drill: Drill
let smtp: SmtpFake
beforeAll(async () => {
  smtp = await startSmtpFake()
  drill = await startDrill({ modelDelayMs: 0, env: { SMTP_URL: smtp.url, MAIL_FROM: 'alerts@example.com' } })
}, 60_000)
afterAll(async () => {
  await drill?.close()
  await smtp?.close()
}, 30_000)

/** A new worker looks at the outbox at once, then every 10 s: this waits past its first poll. */
const TWO_POLLS_MS = 12_000

describe('a worker killed right after the SMTP server took its email', () => {
  it('never sends that email again', async () => {
    const db = drill.handle.db
    const [{ organizationId }] = await db
      .select({ organizationId: channels.organizationId })
      .from(channels)
      .where(eq(channels.id, drill.bots[0].channelId))
    const [owner] = await db
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, organizationId))

    const first = drill.startWorker(1)
    smtp.onAccepted = async () => {
      // Before the server's 250 reaches the worker: the mail is out, our record of it is not.
      first.child.kill('SIGKILL')
      await first.exited()
    }
    await first.printed('"msg":"worker started"')
    const [conversation] = await db
      .insert(conversations)
      .values({
        organizationId,
        channelId: drill.bots[0].channelId,
        platformChatId: '777001',
        customerName: 'Ann',
      })
      .returning({ id: conversations.id })
    await handOver(db, conversation.id, 'Asked for a person')

    const [mail] = await smtp.waitForMails(1, 30_000)
    expect(mail.to).toEqual([owner.email])
    expect(mail.subject).toBe('Ann needs a person')
    await first.exited()
    smtp.onAccepted = undefined

    const second = drill.startWorker(2)
    await second.printed('"msg":"worker started"')
    await new Promise((resolve) => setTimeout(resolve, TWO_POLLS_MS))
    expect(smtp.mails, drill.workerLogs()).toHaveLength(1)
    const deliveries = await db
      .select({ status: notificationDeliveries.status, attempts: notificationDeliveries.attempts })
      .from(notificationDeliveries)
    expect(deliveries).toEqual([{ status: 'sending', attempts: 1 }])
  }, 90_000)
})
