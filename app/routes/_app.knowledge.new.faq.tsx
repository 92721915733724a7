import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData, useSearchParams } from '@remix-run/react'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import { KNOWLEDGE_PATH } from '~/components/knowledge/paths'
import { SourceForm } from '~/components/knowledge/source-form'
import { addSourceFromForm } from '~/http/knowledge-dialogs.server'

export const handle = dialogHandle({ title: 'Add FAQ' })

/** From the dialog (a fetcher) the answer is data for it; without JavaScript a success goes back to the list. */
export async function action({ request }: ActionFunctionArgs) {
  const { status, body } = await addSourceFromForm(request, 'faq')
  if (body.saved && body.noscript) return redirect(KNOWLEDGE_PATH)
  return data(body, status)
}

export default function AddFaqDialog() {
  const submission = useDialogFetcher<typeof action>(useActionData<typeof action>())
  // "Try a question" opens this dialog with the question that found nothing.
  const [searchParams] = useSearchParams()
  return (
    <SourceForm kind="faq" question={searchParams.get('question') ?? undefined} submission={submission} />
  )
}
