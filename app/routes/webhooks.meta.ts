import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  matchesVerifyToken,
  META_SIGNATURE_HEADER,
  verifyMetaSignature,
} from '~/integrations/meta/signature.server'
import { WEBHOOK_MAX_BODY_BYTES } from '~/lib/messages'
import { META_WEBHOOK_MESSAGES, receiveMetaWebhook } from '~/services/messages/meta-webhook.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'
import { readBodyWithLimit } from '~/utils/read-body.server'
import { getRuntime } from '~/utils/runtime.server'

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
 * Meta's deliveries for every page and number of the app: the body (1 MB at most) read as bytes, its
 * X-Hub-Signature-256 checked against the app secret in constant time, then parsed, stored and enqueued (see
 * receiveMetaWebhook), then 200. Any refusal stores and enqueues nothing; a 5xx makes Meta deliver again later,
 * which the unique keys make harmless.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return reply(405, 'Method not allowed')
  const tooLarge = () => reply(413, 'Payload too large')
  if (Number(request.headers.get('content-length') ?? 0) > WEBHOOK_MAX_BODY_BYTES) return tooLarge()

  const { config, database, boss } = await getRuntime()
  const body = await readBodyWithLimit(request, WEBHOOK_MAX_BODY_BYTES)
  if (!body.ok) return tooLarge()
  if (!verifyMetaSignature(body.bytes, request.headers.get(META_SIGNATURE_HEADER), config.meta.appSecret)) {
    return reply(401, META_WEBHOOK_MESSAGES.badSignature)
  }
  let payload: unknown
  try {
    payload = JSON.parse(body.text)
  } catch {
    return reply(400, META_WEBHOOK_MESSAGES.badBody)
  }
  try {
    await receiveMetaWebhook({ db: database.db, boss, body: payload })
    return reply(200)
  } catch (error) {
    if (isAppError(error)) return reply(ERROR_STATUS[error.code].status, error.message)
    throw error
  }
}
