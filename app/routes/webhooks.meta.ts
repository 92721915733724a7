import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { matchesVerifyToken } from '~/integrations/meta/signature.server'
import { META_WEBHOOK_MESSAGES } from '~/services/messages/meta-webhook.server'
import { getRuntime } from '~/utils/runtime.server'
import { callFromRequest, receiveMetaCall } from '~/utils/webhook-receivers.server'

const reply = (status: number, message?: string) =>
  Response.json(message ? { ok: false, message } : { ok: true }, {
    status,
    headers: { 'Cache-Control': 'no-store' },
  })

/**
 * Meta's subscription handshake: `hub.mode=subscribe` with our verify token is answered with `hub.challenge` as
 * plain text; anything else is refused with 403.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { config } = await getRuntime()
  const query = new URL(request.url).searchParams
  const challenge = query.get('hub.challenge') ?? ''
  const accepted =
    query.get('hub.mode') === 'subscribe' &&
    challenge.length > 0 &&
    matchesVerifyToken(query.get('hub.verify_token'), config.meta.verifyToken)
  if (!accepted) return reply(403, META_WEBHOOK_MESSAGES.badVerifyToken)
  return new Response(challenge, {
    status: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

/**
 * Meta's deliveries for every page and number of the app (see receiveMetaCall). In production the server entry
 * answers this path before Remix does, with the same function (docs/decisions/024).
 */
export async function action({ request }: ActionFunctionArgs) {
  const { status, body } = await receiveMetaCall(await getRuntime(), callFromRequest(request))
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  })
}
