import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { SavedRepliesScreen, type SavedReplyAnswer } from '~/components/conversations/saved-replies-screen'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { SAVED_REPLY_TEXTS, savedReplySchema } from '~/lib/conversations/saved-replies'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { idSchema } from '~/lib/shared/input'
import {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  updateSavedReply,
} from '~/services/conversations/saved-replies.server'

export const meta: MetaFunction = () => [{ title: `Saved replies · ${PRODUCT_NAME}` }]

/** The organization's saved replies (docs/decisions/059). */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  return { hasOrganization: Boolean(scope), replies: scope ? await listSavedReplies(scope) : [] }
}

const commandSchema = z.discriminatedUnion('intent', [
  savedReplySchema.extend({ intent: z.literal('create') }),
  savedReplySchema.extend({ intent: z.literal('update'), id: idSchema }),
  z.object({ intent: z.literal('delete'), id: idSchema }),
])

/** Adds, changes or deletes one; a refusal names the form (by its reply's id) and says why, with a 400. */
export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData())
  const target = typeof form.id === 'string' ? form.id : 'new'
  const parsed = commandSchema.safeParse(form)
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? SAVED_REPLY_TEXTS.notFound
    return data<SavedReplyAnswer>({ target, error: reason, notice: null }, 400)
  }
  const command = parsed.data
  const outcome = await attemptInScope(
    await getCurrentScope(request),
    async (scope) => {
      if (command.intent === 'create') {
        await createSavedReply(scope, command)
        return SAVED_REPLY_TEXTS.created
      }
      if (command.intent === 'update') {
        await updateSavedReply(scope, command.id, command)
        return SAVED_REPLY_TEXTS.updated
      }
      await deleteSavedReply(scope, command.id)
      return SAVED_REPLY_TEXTS.deleted
    },
    'The saved reply could not be saved. Please try again.',
    { route: 'saved-replies', intent: command.intent },
  )
  if (!outcome.ok) {
    return data<SavedReplyAnswer>(
      { target, error: outcome.failure.reason, notice: null },
      outcome.failure.status,
    )
  }
  return data<SavedReplyAnswer>({ target, error: null, notice: outcome.value })
}

export default function SavedRepliesPage() {
  const { hasOrganization, replies } = useLoaderData<typeof loader>()
  return (
    <SavedRepliesScreen
      hasOrganization={hasOrganization}
      replies={replies}
      answer={useActionData<typeof action>()}
    />
  )
}
