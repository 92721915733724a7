import type { ActionFunctionArgs } from '@remix-run/node'
import { uploadSourceFromForm } from '~/http/knowledge-dialogs.server'

/**
 * The Upload file dialog's own request once hydrated (an XMLHttpRequest, whose upload reports its progress): the
 * same answer as the dialog route's action, as JSON. A resource route: a fetcher cannot report an upload's progress.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { status, body } = await uploadSourceFromForm(request)
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })
}
