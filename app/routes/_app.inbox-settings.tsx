import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import {
  InboxSettingsScreen,
  type InboxSettingsAnswer,
} from '~/components/conversations/inbox-settings-screen'
import { CONVERSATION_UI_TEXTS as T } from '~/components/conversations/texts'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { autoResolveFormSchema, mediaRetentionFormSchema } from '~/lib/organizations/schemas'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { getOrganization, updateOrganization } from '~/services/organizations/organizations.server'
import { NoOrganization } from '~/components/organizations/no-organization'

export const meta: MetaFunction = () => [{ title: `${T.inboxSettings} · ${PRODUCT_NAME}` }]

/** The organization's inbox settings (docs/decisions/063). */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const organization = scope ? await getOrganization(scope) : undefined
  return organization
    ? {
        organization: {
          autoResolveHours: organization.autoResolveHours,
          mediaRetentionDays: organization.mediaRetentionDays,
          isOwner: organization.role === 'owner',
        },
      }
    : { organization: null }
}

/**
 * Saves the AI's resolution period or how long customers' files are kept, whichever form was sent (owners only); a
 * refusal says why, with its status, and changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData())
  const section = 'mediaRetentionDays' in form ? 'files' : 'ai-resolution'
  const parsed =
    section === 'files' ? mediaRetentionFormSchema.safeParse(form) : autoResolveFormSchema.safeParse(form)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? null
    return data<InboxSettingsAnswer>({ section, error, notice: null }, 400)
  }
  const outcome = await attemptInScope(
    await getCurrentScope(request),
    (scope) => updateOrganization(scope, parsed.data),
    'The settings could not be saved. Please try again.',
    { route: 'inbox-settings' },
  )
  return outcome.ok
    ? data<InboxSettingsAnswer>({ section, error: null, notice: T.aiResolutionSaved })
    : data<InboxSettingsAnswer>(
        { section, error: outcome.failure.reason, notice: null },
        outcome.failure.status,
      )
}

export default function InboxSettingsPage() {
  const { organization } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  if (!organization) {
    return <NoOrganization hint={T.noOrganizationHint} />
  }
  return <InboxSettingsScreen {...organization} answer={answer} />
}
