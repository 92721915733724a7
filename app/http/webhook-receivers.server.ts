import type { IncomingMessage } from 'node:http'
import {
  META_SIGNATURE_HEADER,
  matchesVerifyToken,
  verifyMetaSignature,
} from '~/integrations/meta/signature.server'
import { WEBHOOK_MAX_BODY_BYTES } from '~/lib/conversations/reply-pipeline'
import { metaWebhookPlatform } from '~/integrations/meta/webhook-payload.server'
import { META_WEBHOOK_TEXTS, receiveMetaWebhook } from '~/services/messages/inbound/meta.server'
import { platformReplies } from '~/services/conversations/platform-reply.server'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
  WEBHOOK_TEXTS,
} from '~/services/messages/inbound/telegram.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'
import {
  recordWebhook,
  webhookRejectReason,
  type WebhookOutcome,
  type WebhookPlatform,
} from '~/utils/metrics.server'
import { readBodyWithLimit } from '~/http/read-body.server'
import { resumeScheduler } from '~/runtime/channel-deps.server'
import type { Runtime } from '~/runtime/runtime.server'

/**
 * The platform receivers (POST /webhooks/telegram/:channelId, POST /webhooks/meta) whatever serves them: the
 * Remix routes, or the server entry directly on Node's request (docs/decisions/024), with one behaviour.
 */
export type WebhookCall = {
  method: string
  header(name: string): string | null
  /** The body, read no further than the limit (see readBodyWithLimit). */
  readBody(maxBytes: number): Promise<{ ok: true; text: string; bytes: Buffer } | { ok: false }>
}
export type WebhookAnswer = { status: number; body: string }

type ReceiverRuntime = Pick<
  Runtime,
  'config' | 'database' | 'boss' | 'ingest' | 'replyQueue' | 'webhookChannels' | 'logger'
>

function answer(platform: WebhookPlatform, outcome: WebhookOutcome, status: number, message?: string) {
  recordWebhook(platform, outcome)
  return { status, body: JSON.stringify(message ? { ok: false, message } : { ok: true }) }
}

/**
 * Telegram's webhook for one channel: the secret header, then the body (1 MB at most, JSON), then store and
 * enqueue, then 200 at once. Any refusal stores and enqueues nothing. A thrown error (the database is down) is a
 * 5xx for the caller to answer: Telegram delivers again later, which the unique key makes harmless.
 */
export async function receiveTelegramCall(
  runtime: ReceiverRuntime,
  channelId: string,
  call: WebhookCall,
): Promise<WebhookAnswer> {
  if (call.method !== 'POST') return answer('telegram', 'method_not_allowed', 405, 'Method not allowed')
  const tooLarge = () => answer('telegram', 'too_large', 413, 'Payload too large')
  if (Number(call.header('content-length') ?? 0) > WEBHOOK_MAX_BODY_BYTES) return tooLarge()
  const { database, boss, ingest, replyQueue, webhookChannels, logger } = runtime
  try {
    const channel = await authenticateTelegramWebhook(
      database.db,
      channelId,
      call.header('x-telegram-bot-api-secret-token'),
      webhookChannels,
    )
    const body = await call.readBody(WEBHOOK_MAX_BODY_BYTES)
    if (!body.ok) return tooLarge()
    let update: unknown
    try {
      update = JSON.parse(body.text)
    } catch {
      return answer('telegram', 'bad_body', 400, WEBHOOK_TEXTS.badBody)
    }
    await receiveTelegramUpdate({ db: database.db, boss, channel, body: update, ingest, logger })
    // Above REPLY_QUEUE_HIGH_WATER the update is still stored and acknowledged: this only counts it.
    replyQueue.acknowledged('telegram')
    return answer('telegram', 'accepted', 200)
  } catch (error) {
    if (isAppError(error)) {
      const status = ERROR_STATUS[error.code].status
      return answer('telegram', webhookRejectReason(error.code, 'bad_secret'), status, error.message)
    }
    recordWebhook('telegram', 'internal_error')
    throw error
  }
}

/**
 * Meta's deliveries for every page and number of the app: the body (1 MB at most) read as bytes, its
 * X-Hub-Signature-256 checked against the app secret in constant time, then parsed, stored and enqueued event by
 * event (see receiveMetaWebhook: an event we do not handle is skipped, not refused; a person's reply on the
 * platform pauses the AI, its hand-back sent to the queue), then 200. Any refusal (a bad
 * signature, malformed JSON, a body over 1 MB, no connected channel) stores and enqueues nothing; a thrown error is a 5xx, after which
 * Meta delivers again, which the unique keys make harmless.
 */
export async function receiveMetaCall(runtime: ReceiverRuntime, call: WebhookCall): Promise<WebhookAnswer> {
  if (call.method !== 'POST') return answer('meta', 'method_not_allowed', 405, 'Method not allowed')
  const tooLarge = () => answer('meta', 'too_large', 413, 'Payload too large')
  if (Number(call.header('content-length') ?? 0) > WEBHOOK_MAX_BODY_BYTES) return tooLarge()
  const { config, database, boss, ingest, replyQueue, webhookChannels, logger } = runtime
  const body = await call.readBody(WEBHOOK_MAX_BODY_BYTES)
  if (!body.ok) return tooLarge()
  if (!verifyMetaSignature(body.bytes, call.header(META_SIGNATURE_HEADER), config.meta.appSecret)) {
    return answer('meta', 'bad_signature', 401, META_WEBHOOK_TEXTS.badSignature)
  }
  let payload: unknown
  try {
    payload = JSON.parse(body.text)
  } catch {
    return answer('meta', 'bad_body', 400, META_WEBHOOK_TEXTS.badBody)
  }
  const platform = metaWebhookPlatform(payload)
  try {
    await receiveMetaWebhook({
      db: database.db,
      boss,
      body: payload,
      appId: config.meta.appId,
      personReplies: platformReplies(database.db, resumeScheduler(runtime)),
      ingest,
      lookup: webhookChannels,
      logger,
    })
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

/** A Fetch API request (the Remix routes) as a WebhookCall. */
/**
 * Meta's subscription handshake: the `hub.challenge` to echo when `hub.mode=subscribe` comes with our verify
 * token; undefined (refuse) otherwise.
 */
export function metaHandshakeChallenge(
  query: URLSearchParams,
  verifyToken: string | undefined,
): string | undefined {
  const challenge = query.get('hub.challenge') ?? ''
  const accepted =
    query.get('hub.mode') === 'subscribe' &&
    challenge.length > 0 &&
    matchesVerifyToken(query.get('hub.verify_token'), verifyToken)
  return accepted ? challenge : undefined
}

export function callFromRequest(request: Request): WebhookCall {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    readBody: (maxBytes) => readBodyWithLimit(request, maxBytes),
  }
}

/** Node's request (the server entry) as a WebhookCall: no Fetch Request is built. */
export function callFromNode(req: IncomingMessage): WebhookCall {
  return {
    method: req.method ?? 'GET',
    header: (name) => {
      const value = req.headers[name.toLowerCase()]
      return Array.isArray(value) ? value.join(', ') : (value ?? null)
    },
    readBody: (maxBytes) =>
      new Promise((resolve, reject) => {
        const declared = Number(req.headers['content-length'] ?? '')
        if (Number.isFinite(declared) && declared > maxBytes) return resolve({ ok: false })
        const chunks: Buffer[] = []
        let size = 0
        let done = false
        req.on('data', (chunk: Buffer) => {
          if (done) return
          size += chunk.length
          if (size > maxBytes) {
            done = true
            req.resume() // drain the rest unread, so the answer can be sent on this connection
            return resolve({ ok: false })
          }
          chunks.push(chunk)
        })
        req.once('end', () => {
          if (done) return
          done = true
          const bytes = Buffer.concat(chunks)
          resolve({ ok: true, text: bytes.toString('utf8'), bytes })
        })
        req.once('error', (error) => {
          if (!done) reject(error)
        })
      }),
  }
}
