import { z } from 'zod'
import { timeZoneSchema } from '~/lib/analytics/analytics'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

export const ORGANIZATION_NAME_MAX = 100

export const organizationNameSchema = z
  .string({ error: 'Organization name is required' })
  .trim()
  .min(1, 'Organization name is required')
  .max(ORGANIZATION_NAME_MAX, `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters`)
  .refine(hasNoNul, NUL_MESSAGE)

/**
 * The Create Organization dialog's form: the name, and the creator's browser's time zone, sent by the form
 * where JavaScript runs (issue 34). A zone this server does not know is left out (the organization starts on UTC)
 * rather than refusing the organization for a field the person never saw.
 */
export const createOrganizationSchema = z.object({
  name: organizationNameSchema,
  timeZone: timeZoneSchema.optional().catch(undefined),
})

export const ORGANIZATION_PLANS = ['free', 'pro', 'enterprise'] as const
export const ORGANIZATION_ROLES = ['owner', 'member'] as const

export type OrganizationSummary = {
  id: string
  name: string
  plan: (typeof ORGANIZATION_PLANS)[number]
  role: (typeof ORGANIZATION_ROLES)[number]
}

/** An email address is at most 254 characters (RFC 5321's path limit less its brackets). */
export const INVITATION_EMAIL_MAX = 254
/** Pending invitations an organization may have at once: enough for a team, too few to spam with. */
export const MAX_PENDING_INVITATIONS = 50

/** An invitee's email: trimmed and lowercased, so that one address is one invitee. */
export const invitationEmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(INVITATION_EMAIL_MAX, `Email must be at most ${INVITATION_EMAIL_MAX} characters`)
  .pipe(z.email('Please enter a valid email address.'))

/** The Settings page's invite form and the API's invitation body. */
export const inviteMemberSchema = z.object({ email: invitationEmailSchema })

/** How an invitation's invitee is shown when the owner named a user, not an address: never by their email. */
export const INVITED_USER_LABEL = 'Invited user'

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const

/** An invitation as the organization's owners see it. */
export type OrganizationInvitation = {
  id: string
  organizationId: string
  /** The address an owner typed; null for an invitation made by user id (its invitee's email stays private). */
  email: string | null
  /** What to call the invitee: the typed address, or "Invited user". */
  invitee: string
  role: (typeof ORGANIZATION_ROLES)[number]
  status: (typeof INVITATION_STATUSES)[number]
  invitedBy: string | null
  createdAt: Date
}

/** An invitation as its invitee sees it: which organization, and who asked. */
export type ReceivedInvitation = {
  id: string
  organizationId: string
  organizationName: string
  role: (typeof ORGANIZATION_ROLES)[number]
  invitedBy: string | null
  createdAt: Date
}

export const INVITATION_SENT = 'Invitation sent. They become a member when they accept it.'
export const INVITATION_ALREADY_PENDING = 'An invitation to this person is already pending'

/** What an owner is told after inviting: a new invitation, or the one already waiting for an answer. */
export const invitationMessage = (created: boolean) =>
  created ? INVITATION_SENT : INVITATION_ALREADY_PENDING

/** Accept or Decline, from the organization switcher or the /organization page. */
export const answerInvitationSchema = z.object({
  intent: z.enum(['accept-invitation', 'decline-invitation']),
  invitationId: z.uuid('Invalid invitation id'),
})

/** Invitations to the user's address that wait until they confirm it is theirs (issue 31). */
export type AwaitingEmail = { email: string; organizations: number }

export const awaitingEmailTitle = 'Confirm your email address'
export const awaitingEmailText = ({ email, organizations }: AwaitingEmail) =>
  `${organizations === 1 ? 'An invitation is' : `${organizations} invitations are`} waiting for you. ` +
  `To see ${organizations === 1 ? 'it' : 'them'} and join, open the link we emailed to ${email}.`
export const confirmationSentText = (email: string) =>
  `Email sent to ${email}. It can take a few minutes to arrive; check your spam folder too.`
export const CONFIRMATION_NOT_SENT =
  'We could not send the email just now. Please try again in a few minutes.'

/** An invitation as a page shows it to its invitee (dates left out: JSON would make them strings). */
export type InvitationToAnswer = Pick<ReceivedInvitation, 'id' | 'organizationName' | 'invitedBy'>

/** A member as the pickers show them: their uid (the API's name for them), their name, and whether it is the caller. */
export type MemberOption = { uid: string; name: string; me: boolean }

/** The AI resolves its quiet conversations after this many hours (0: never); at most 30 days. */
export const MAX_AUTO_RESOLVE_HOURS = 720
const AUTO_RESOLVE_MESSAGE = `Hours must be a whole number from 0 to ${MAX_AUTO_RESOLVE_HOURS}`
export const autoResolveHoursSchema = z
  .number({ error: AUTO_RESOLVE_MESSAGE })
  .int(AUTO_RESOLVE_MESSAGE)
  .min(0, AUTO_RESOLVE_MESSAGE)
  .max(MAX_AUTO_RESOLVE_HOURS, AUTO_RESOLVE_MESSAGE)

/** The periods the inbox settings offer (hours, and how a person reads them); the API takes any of 0 to 720. */
export const AUTO_RESOLVE_CHOICES: [hours: number, label: string][] = [
  [0, 'Never'],
  [1, '1 hour'],
  [4, '4 hours'],
  [12, '12 hours'],
  [24, '24 hours'],
  [48, '2 days'],
  [72, '3 days'],
  [168, '7 days'],
  [720, '30 days'],
]

/** Customers' files are kept this many days (docs/decisions/074); 90 by default. */
export const MAX_MEDIA_RETENTION_DAYS = 3650
const MEDIA_RETENTION_MESSAGE = `Days must be a whole number from 1 to ${MAX_MEDIA_RETENTION_DAYS}`
export const mediaRetentionDaysSchema = z
  .number({ error: MEDIA_RETENTION_MESSAGE })
  .int(MEDIA_RETENTION_MESSAGE)
  .min(1, MEDIA_RETENTION_MESSAGE)
  .max(MAX_MEDIA_RETENTION_DAYS, MEDIA_RETENTION_MESSAGE)
export const MEDIA_RETENTION_CHOICES: [days: number, label: string][] = [
  [30, '30 days'],
  [90, '90 days'],
  [180, '6 months'],
  [365, '1 year'],
]
/** The inbox settings' files form: the period as the select sends it. */
export const mediaRetentionFormSchema = z.object({
  mediaRetentionDays: z
    .string({ error: MEDIA_RETENTION_MESSAGE })
    .regex(/^\d{1,4}$/, MEDIA_RETENTION_MESSAGE)
    .transform(Number)
    .pipe(mediaRetentionDaysSchema),
})

/** The inbox settings' form: the period as the select sends it. */
export const autoResolveFormSchema = z.object({
  autoResolveHours: z
    .string({ error: AUTO_RESOLVE_MESSAGE })
    .regex(/^\d{1,4}$/, AUTO_RESOLVE_MESSAGE)
    .transform(Number)
    .pipe(autoResolveHoursSchema),
})
