import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  matchesVerifyToken,
  META_SIGNATURE_HEADER,
  verifyMetaSignature,
} from '~/integrations/meta/signature.server'
import { WEBHOOK_MAX_BODY_BYTES } from '~/lib/messages'
import {
  META_WEBHOOK_MESSAGES,
  metaWebhookPlatform,
  receiveMetaWebhook,
} from '~/services/messages/meta-webhook.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'
import {
  recordWebhook,
  webhookRejectReason,
  type WebhookOutcome,
  type WebhookPlatform,
} from '~/utils/metrics.server'
import { readBodyWithLimit } from '~/utils/read-body.server'
import { getRuntime } from '~/utils/runtime.server'

const reply = (status: number, message?: string) =>
  Response.json(message ? { ok: false, message } : { ok: true }, {
    status,
    headers: { 'Cache-Control': 'no-store' },
  })

/** A delivery's answer, counted by product (`meta` until the body says which) and outcome. */
function answer(platform: WebhookPlatform, outcome: WebhookOutcome, status: number, message?: string) {
  recordWebhook(platform, outcome)
  return reply(status, message)
}

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
  if (request.method !== 'POST') return answer('meta', 'method_not_allowed', 405, 'Method not allowed')
  const tooLarge = () => answer('meta', 'too_large', 413, 'Payload too large')
  if (Number(request.headers.get('content-length') ?? 0) > WEBHOOK_MAX_BODY_BYTES) return tooLarge()

  const { config, database, boss, replyQueue } = await getRuntime()
  const body = await readBodyWithLimit(request, WEBHOOK_MAX_BODY_BYTES)
  if (!body.ok) return tooLarge()
  if (!verifyMetaSignature(body.bytes, request.headers.get(META_SIGNATURE_HEADER), config.meta.appSecret)) {
    return answer('meta', 'bad_signature', 401, META_WEBHOOK_MESSAGES.badSignature)
  }
  let payload: unknown
  try {
    payload = JSON.parse(body.text)
  } catch {
    return answer('meta', 'bad_body', 400, META_WEBHOOK_MESSAGES.badBody)
  }
  const platform = metaWebhookPlatform(payload)
  try {
    await receiveMetaWebhook({ db: database.db, boss, body: payload })
    // Above REPLY_QUEUE_HIGH_WATER the delivery is still stored and acknowledged: this only counts it.
    replyQueue.acknowledged(platform)
    return answer(platform, 'accepted', 200)
  } catch (error) {
    if (isAppError(error)) {
      const status = ERROR_STATUS[error.code].status
      return answer(platform, webhookRejectReason(error.code, 'bad_signature'), status, error.message)
    }
    recordWebhook(platform, 'internal_error')
    throw error
  }
}
