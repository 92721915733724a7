import type { ActionFunctionArgs } from '@remix-run/node'
import { WEBHOOK_MAX_BODY_BYTES } from '~/lib/messages'
import {
  authenticateTelegramWebhook,
  receiveTelegramUpdate,
  WEBHOOK_MESSAGES,
} from '~/services/messages/telegram-webhook.server'
import { ERROR_STATUS, isAppError } from '~/utils/errors'
import { recordWebhook, webhookRejectReason, type WebhookOutcome } from '~/utils/metrics.server'
import { readBodyWithLimit } from '~/utils/read-body.server'
import { getRuntime } from '~/utils/runtime.server'

function reply(outcome: WebhookOutcome, status: number, message?: string) {
  recordWebhook('telegram', outcome)
  return Response.json(message ? { ok: false, message } : { ok: true }, {
    status,
    headers: { 'Cache-Control': 'no-store' },
  })
}

/**
 * Telegram's webhook for one channel: the secret header, then the body (1 MB at most, JSON), then store and
 * enqueue in one transaction, then 200 at once. Any refusal stores and enqueues nothing. A 5xx (the database
 * is down) makes Telegram deliver the update again later, which the unique key makes harmless.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return reply('method_not_allowed', 405, 'Method not allowed')
  const tooLarge = () => reply('too_large', 413, 'Payload too large')
  if (Number(request.headers.get('content-length') ?? 0) > WEBHOOK_MAX_BODY_BYTES) return tooLarge()

  const { database, boss, replyQueue } = await getRuntime()
  try {
    const channel = await authenticateTelegramWebhook(
      database.db,
      params.channelId ?? '',
      request.headers.get('x-telegram-bot-api-secret-token'),
    )
    const body = await readBodyWithLimit(request, WEBHOOK_MAX_BODY_BYTES)
    if (!body.ok) return tooLarge()
    let update: unknown
    try {
      update = JSON.parse(body.text)
    } catch {
      return reply('bad_body', 400, WEBHOOK_MESSAGES.badBody)
    }
    await receiveTelegramUpdate({ db: database.db, boss, channel, body: update })
    // Above REPLY_QUEUE_HIGH_WATER the update is still stored and acknowledged: this only counts it.
    replyQueue.acknowledged('telegram')
    return reply('accepted', 200)
  } catch (error) {
    if (isAppError(error)) {
      const status = ERROR_STATUS[error.code].status
      return reply(webhookRejectReason(error.code, 'bad_secret'), status, error.message)
    }
    recordWebhook('telegram', 'internal_error')
    throw error
  }
}

export function loader() {
  return reply('method_not_allowed', 405, 'Method not allowed')
}
