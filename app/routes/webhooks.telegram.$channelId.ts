import type { ActionFunctionArgs } from '@remix-run/node'
import { recordWebhook } from '~/utils/metrics.server'
import { getRuntime } from '~/runtime/runtime.server'
import { callFromRequest, receiveTelegramCall, type WebhookAnswer } from '~/http/webhook-receivers.server'

const respond = ({ status, body }: WebhookAnswer) =>
  new Response(body, { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } })

/**
 * Telegram's webhook for one channel (see receiveTelegramCall). In production the server entry answers this path
 * before Remix does, with the same function (docs/decisions/024); this route serves it in development and tests.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return respond(
    await receiveTelegramCall(await getRuntime(), params.channelId ?? '', callFromRequest(request)),
  )
}

export function loader() {
  recordWebhook('telegram', 'method_not_allowed')
  return respond({ status: 405, body: JSON.stringify({ ok: false, message: 'Method not allowed' }) })
}
