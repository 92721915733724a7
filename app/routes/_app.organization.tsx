import { parseWithZod } from '@conform-to/zod/v4'
import { Badge, Button, Paper, Stack, Text, Title } from '@mantine/core'
import { data, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useRouteLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { FormError } from '~/components/auth/form-error'
import { CreateOrganizationForm } from '~/components/organizations/create-organization-form'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import {
  CONFIRM_EMAIL_INTENT,
  EmailConfirmationNotice,
} from '~/components/organizations/email-confirmation-notice'
import { InvitationAnswerForms } from '~/components/organizations/invitation-answer-forms'
import { ListRow, RowList } from '~/components/organizations/list-row'
import {
  answerInvitationSchema,
  CONFIRMATION_NOT_SENT,
  createOrganizationSchema,
} from '~/lib/organizations/schemas'
import { safeRedirectPath } from '~/lib/shared/safe-redirect'
import { authErrorMessage } from '~/lib/auth/errors'
import { consumeAccountAttempt } from '~/http/rate-limit.server'
import {
  acceptInvitation,
  declineInvitation,
  sendInvitationEmailConfirmation,
} from '~/services/organizations/invitations.server'
import { createOrganization, switchOrganization } from '~/services/organizations/organizations.server'
import { requireSignedIn } from '~/http/auth.server'
import { isAppError } from '~/utils/errors'
import { getRuntime } from '~/runtime/runtime.server'
import type { loader as appLoader } from './_app'

export const meta: MetaFunction = () => [{ title: `Organizations · ${PRODUCT_NAME}` }]

export const CREATE_FAILED = 'Failed to create organization. Please try again.'

const switchSchema = z.object({ intent: z.literal('switch'), organizationId: z.string().min(1) })

/**
 * Creating and switching organizations, and answering invitations. The switcher and the dialog post here with a
 * fetcher; without JavaScript the same forms post here as pages and are sent back where they came from
 * (redirectTo).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user, session } = await requireSignedIn(request)
  const runtime = await getRuntime()
  const formData = await request.formData()
  const redirectTo = formData.get('redirectTo')
  const back = typeof redirectTo === 'string' ? redirect(safeRedirectPath(redirectTo)) : undefined
  const a: OrganizationAction = { ...runtime, user, sessionId: session.id, formData, back }
  const intent = formData.get('intent')
  if (intent === CONFIRM_EMAIL_INTENT) return confirmEmail(a, context.clientIp ?? 'unknown')
  if (intent === 'switch') return switchTo(a)
  if (intent === 'accept-invitation' || intent === 'decline-invitation') return answerInvitation(a)
  return createAndSwitch(a)
}

type OrganizationAction = Pick<Awaited<ReturnType<typeof getRuntime>>, 'database' | 'identity' | 'logger'> & {
  user: { id: string; email?: string | null }
  sessionId: string
  formData: FormData
  /** Where a page form (no JavaScript) goes back to. */
  back: Response | undefined
}

async function confirmEmail({ database, identity, logger, user }: OrganizationAction, clientIp: string) {
  // Each press sends an email: limited as sign-up and password reset are, per address and per account.
  const attempt = consumeAccountAttempt({ ip: clientIp, account: user.email ?? user.id })
  if (!attempt.allowed) {
    return data(
      { confirmationSentTo: null, confirmationError: authErrorMessage('TOO_MANY_ATTEMPTS_TRY_LATER') },
      { status: 429, headers: { 'Retry-After': String(attempt.retryAfterSeconds) } },
    )
  }
  try {
    const sentTo = await sendInvitationEmailConfirmation({ db: database.db, identity, userId: user.id })
    return { confirmationSentTo: sentTo, confirmationError: null }
  } catch (error) {
    logger.warn('email confirmation not sent', { error, userId: user.id })
    return data({ confirmationSentTo: null, confirmationError: CONFIRMATION_NOT_SENT }, 502)
  }
}

async function switchTo({ database, user, sessionId, formData, back }: OrganizationAction) {
  const parsed = switchSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) throw data('Invalid request', 400)
  try {
    await switchOrganization({
      db: database.db,
      userId: user.id,
      sessionId,
      organizationId: parsed.data.organizationId,
    })
  } catch (error) {
    if (isAppError(error, 'NOT_FOUND')) throw data(error.message, 404)
    throw error
  }
  return back ?? { switched: true }
}

async function answerInvitation({ database, identity, user, sessionId, formData, back }: OrganizationAction) {
  const parsed = answerInvitationSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) throw data('Invalid request', 400)
  const args = { db: database.db, identity, userId: user.id, invitationId: parsed.data.invitationId }
  try {
    if (parsed.data.intent === 'decline-invitation') {
      await declineInvitation(args)
      return back ?? { answered: 'declined' as const, joined: null, invitationError: null }
    }
    const joined = await acceptInvitation(args)
    // The organization one just joined is the one to work in, as with one just created.
    await switchOrganization({ db: database.db, userId: user.id, sessionId, organizationId: joined.id })
    return back ?? { answered: 'accepted' as const, joined, invitationError: null }
  } catch (error) {
    if (isAppError(error, 'NOT_FOUND') || isAppError(error, 'CONFLICT') || isAppError(error, 'FORBIDDEN')) {
      const status = isAppError(error, 'NOT_FOUND') ? 404 : isAppError(error, 'FORBIDDEN') ? 403 : 409
      return data({ answered: null, joined: null, invitationError: error.message }, status)
    }
    throw error
  }
}

async function createAndSwitch({ database, logger, user, sessionId, formData, back }: OrganizationAction) {
  const submission = parseWithZod(formData, { schema: createOrganizationSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), created: null }, 400)
  try {
    const created = await createOrganization({
      db: database.db,
      userId: user.id,
      name: submission.value.name,
      timeZone: submission.value.timeZone,
    })
    await switchOrganization({ db: database.db, userId: user.id, sessionId, organizationId: created.id })
    return back ?? { result: submission.reply({ resetForm: true }), created }
  } catch (error) {
    logger.error('organization creation failed', { error, userId: user.id })
    return data({ result: submission.reply({ formErrors: [CREATE_FAILED] }), created: null }, 500)
  }
}

/** The page form of the same actions: what a browser without JavaScript uses. */
export default function OrganizationPage() {
  const app = useRouteLoaderData<typeof appLoader>('routes/_app')
  const actionData = useActionData<typeof action>()
  const organizations = app?.organizations ?? []
  const invitations = app?.invitations ?? []
  const awaitingEmail = app?.awaitingEmail ?? null
  const invitationError = actionData && 'invitationError' in actionData ? actionData.invitationError : null
  const confirmation =
    actionData && 'confirmationSentTo' in actionData
      ? { confirmationSentTo: actionData.confirmationSentTo, confirmationError: actionData.confirmationError }
      : undefined
  const createResult = actionData && 'result' in actionData ? actionData.result : undefined
  return (
    <>
      <PageHeader title="Organizations" subtitle="Choose the organization you work in, or create a new one" />
      <Stack gap="lg" maw={560}>
        <Paper withBorder p="lg" component="section" aria-labelledby="invitations-heading">
          <Title order={2} size="h4" mb="md" id="invitations-heading">
            Invitations
          </Title>
          <FormError message={invitationError ?? undefined} />
          {awaitingEmail ? (
            <EmailConfirmationNotice awaitingEmail={awaitingEmail} result={confirmation} />
          ) : null}
          {invitations.length === 0 && !awaitingEmail ? (
            <Text c="gray.7">No pending invitations</Text>
          ) : invitations.length === 0 ? null : (
            <RowList gap="sm">
              {invitations.map((invitation) => (
                <ListRow
                  key={invitation.id}
                  title={invitation.organizationName}
                  detail={invitation.invitedBy ? `Invited by ${invitation.invitedBy}` : undefined}
                >
                  <InvitationAnswerForms invitation={invitation} />
                </ListRow>
              ))}
            </RowList>
          )}
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Your organizations
          </Title>
          {organizations.length === 0 ? (
            <Text c="gray.7">No organizations yet</Text>
          ) : (
            <RowList gap="xs">
              {organizations.map((o) => (
                <ListRow key={o.id} title={o.name} detail={`${o.role} · ${o.plan}`}>
                  {o.id === app?.currentOrganization?.id ? (
                    <Badge variant="light">Current</Badge>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="switch" />
                      <input type="hidden" name="organizationId" value={o.id} />
                      <input type="hidden" name="redirectTo" value="/" />
                      <Button type="submit" size="xs" variant="default">
                        Switch
                      </Button>
                    </Form>
                  )}
                </ListRow>
              ))}
            </RowList>
          )}
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Create Organization
          </Title>
          <CreateOrganizationForm lastResult={createResult} redirectTo="/" />
        </Paper>
      </Stack>
    </>
  )
}
