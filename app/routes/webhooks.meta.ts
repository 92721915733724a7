import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { META_WEBHOOK_TEXTS } from '~/services/messages/inbound/meta.server'
import { getRuntime } from '~/runtime/runtime.server'
import { callFromRequest, metaHandshakeChallenge, receiveMetaCall } from '~/http/webhook-receivers.server'

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
  const challenge = metaHandshakeChallenge(new URL(request.url).searchParams, config.meta.verifyToken)
  if (challenge === undefined) return reply(403, META_WEBHOOK_TEXTS.badVerifyToken)
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
