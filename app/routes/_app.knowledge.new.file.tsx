import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { dialogHandle } from '~/components/dialogs/route-dialog'
import { KNOWLEDGE_PATH } from '~/components/knowledge/paths'
import { UploadForm } from '~/components/knowledge/upload-form'
import { uploadSourceFromForm } from '~/http/knowledge-dialogs.server'

export const handle = dialogHandle({ title: 'Upload File' })

/**
 * The form posted without JavaScript (multipart): a success goes back to the list. Once hydrated the dialog sends
 * the file to /knowledge/upload itself, to show its progress.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { status, body } = await uploadSourceFromForm(request)
  if (body.saved && body.noscript) return redirect(KNOWLEDGE_PATH)
  return data(body, status)
}

export default function UploadFileDialog() {
  return <UploadForm noScriptAnswer={useActionData<typeof action>()} />
}
