import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '~/db/client.server'
import { invitations, organizations, users } from '~/db/schema'
import type { Mail, Mailer } from '~/integrations/email/mailer.server'
import { NOTIFICATION_RETRY, retryAt } from '~/lib/notifications/notifications'
import type { Logger } from '~/utils/logger.server'
import { escapeHtml } from './email.server'

// The invitation's email to the invited address (issue 35, docs/decisions/068): claimed `sending` before the
// send, as notifications are, so a killed worker never sends it twice; a refusal is tried again later.

/** An invitation older than this is not emailed any more (email was set up long after it was made). */
const EMAIL_WITHIN_MS = 7 * 24 * 60 * 60_000

const inviter = alias(users, 'inviter')

export async function sendInvitationEmails(
  deps: { db: Database; mailer: Mailer; appUrl: string; logger: Logger },
  { limit = 20, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<number> {
  const due = deps.db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.emailStatus, 'pending'),
        eq(invitations.status, 'pending'),
        lte(invitations.emailDueAt, now),
        gt(invitations.createdAt, new Date(now.getTime() - EMAIL_WITHIN_MS)),
      ),
    )
    .orderBy(asc(invitations.emailDueAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  const claimed = await deps.db
    .update(invitations)
    .set({ emailStatus: 'sending', emailAttempts: sql`${invitations.emailAttempts} + 1` })
    .where(inArray(invitations.id, due))
    .returning({ id: invitations.id, attempts: invitations.emailAttempts })
  if (claimed.length === 0) return 0
  const rows = await deps.db
    .select({
      id: invitations.id,
      email: invitations.email,
      organizationName: organizations.name,
      inviterName: sql<string | null>`coalesce(${inviter.displayName}, ${inviter.email})`,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(
      inArray(
        invitations.id,
        claimed.map((c) => c.id),
      ),
    )
  for (const row of rows) {
    const attempts = claimed.find((c) => c.id === row.id)?.attempts ?? 1
    try {
      if (!row.email) throw new Error('The invitation names no address')
      await deps.mailer.send(invitationEmail({ ...row, email: row.email }, deps.appUrl))
      await deps.db.update(invitations).set({ emailStatus: 'sent' }).where(eq(invitations.id, row.id))
    } catch (error) {
      const last = attempts >= NOTIFICATION_RETRY.maxAttempts
      await deps.db
        .update(invitations)
        .set({
          emailStatus: last ? 'failed' : 'pending',
          emailDueAt: retryAt(now, attempts),
        })
        .where(eq(invitations.id, row.id))
      deps.logger.warn('invitation email not sent', {
        reason: error instanceof Error ? error.message : String(error),
      })
    }
  }
  return claimed.length
}

/** Who invites them where, and how to accept: sign in with this address, then answer in ReplyPilot. */
export function invitationEmail(
  invitation: { id: string; email: string; organizationName: string; inviterName: string | null },
  appUrl: string,
): Mail {
  const who = invitation.inviterName ?? 'Someone'
  const link = `${appUrl}/organization`
  const subject = `${who} invited you to ${invitation.organizationName} on ReplyPilot`
  const text = [
    `${who} invited you to join ${invitation.organizationName} on ReplyPilot, where its team answers its customers' messages.`,
    '',
    `Sign in or create your account with ${invitation.email}, confirm the address, then accept: ${link}`,
    '',
    'If you did not expect this, ignore this email: nothing happens until you accept.',
  ].join('\n')
  const html =
    `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(invitation.organizationName)}</strong> on ReplyPilot.</p>` +
    `<p>Sign in or create your account with ${escapeHtml(invitation.email)}, confirm the address, then ` +
    `<a href="${escapeHtml(link)}">accept the invitation</a>.</p>` +
    '<p style="color:#666;font-size:12px">If you did not expect this, ignore this email: nothing happens until you accept.</p>'
  return { to: invitation.email, subject, text, html, messageId: `<${invitation.id}@replypilot.invitations>` }
}
