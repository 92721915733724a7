import { createHash, timingSafeEqual } from 'node:crypto'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * The process's Prometheus metrics (GET /metrics on the web process, the worker's own listener, see
 * docs/decisions/019). One registry per process, kept on globalThis: the Remix build and the server entry load
 * their own copies of this module, and both must count into the same place.
 */

/** Where a webhook came from: Meta's deliveries are counted as `meta` until their body says which product. */
export type WebhookPlatform = 'telegram' | 'facebook' | 'whatsapp' | 'meta'
export type ReplyPlatform = 'telegram' | 'facebook' | 'whatsapp' | 'unknown'

/** Why a receiver refused a delivery (nothing stored), or `internal_error` when it failed (a 5xx). */
export const WEBHOOK_REJECT_REASONS = [
  'bad_secret',
  'bad_signature',
  'bad_body',
  'too_large',
  'unknown_channel',
  'method_not_allowed',
  'internal_error',
] as const
export type WebhookRejectReason = (typeof WEBHOOK_REJECT_REASONS)[number]
export type WebhookOutcome = 'accepted' | WebhookRejectReason

const PREFIX = 'replypilot_'

type Registers = Registry[]

function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const queue = { depth: undefined as (() => Promise<number>) | undefined, highWater: 0 }
  queueGauges(registers, queue)
  return {
    registry,
    ...webhookMetrics(registers),
    ...replyMetrics(registers),
    /** The reply queue's depth (a fresh reading, shared by concurrent callers) and bound, set by the runtime. */
    watchReplyQueue(source: { depth: () => Promise<number>; highWater: number }) {
      queue.depth = source.depth
      queue.highWater = source.highWater
    },
  }
}

/** Deliveries and their events: received, refused, skipped, incomplete, and those acknowledged over the high water. */
function webhookMetrics(registers: Registers) {
  return {
    webhooksReceived: new Counter({
      name: `${PREFIX}webhooks_received_total`,
      help: 'Webhook deliveries acknowledged with 200, by platform.',
      labelNames: ['platform'] as const,
      registers,
    }),
    webhooksRejected: new Counter({
      name: `${PREFIX}webhooks_rejected_total`,
      help: 'Webhook deliveries refused (nothing stored) or failed (5xx), by platform and reason.',
      labelNames: ['platform', 'reason'] as const,
      registers,
    }),
    inboundMessages: new Counter({
      name: `${PREFIX}inbound_messages_total`,
      help: 'Inbound messages from webhooks: stored now, or dropped as a redelivery of one already stored.',
      labelNames: ['platform', 'result'] as const,
      registers,
    }),
    webhookEventsSkipped: new Counter({
      name: `${PREFIX}webhook_events_skipped_total`,
      help: 'Events of acknowledged deliveries left out, by platform and reason: unsupported (a kind not handled), malformed (without what we need), unknown_channel, own_echo (the echo of our own send).',
      labelNames: ['platform', 'reason'] as const,
      registers,
    }),
    webhookEventsIncomplete: new Counter({
      name: `${PREFIX}webhook_events_incomplete_total`,
      help: 'Events used without a field we would like (a message without its own timestamp), by platform and field.',
      labelNames: ['platform', 'missing'] as const,
      registers,
    }),
    ackedOverHighWater: new Counter({
      name: `${PREFIX}webhooks_acknowledged_over_high_water_total`,
      help: 'Deliveries stored and acknowledged while the reply queue was deeper than REPLY_QUEUE_HIGH_WATER.',
      labelNames: ['platform'] as const,
      registers,
    }),
  }
}

/** Answers and the model calls behind them. */
function replyMetrics(registers: Registers) {
  return {
    repliesSent: new Counter({
      name: `${PREFIX}replies_sent_total`,
      help: 'Answers accepted by the platform, by platform.',
      labelNames: ['platform'] as const,
      registers,
    }),
    repliesFailed: new Counter({
      name: `${PREFIX}replies_failed_total`,
      help: 'Messages marked failed after the last try (model or platform), by platform.',
      labelNames: ['platform'] as const,
      registers,
    }),
    repliesNotAnswered: new Counter({
      name: `${PREFIX}replies_not_answered_total`,
      help: 'Messages stored and left to a person (no agent assigned, disabled, archived...), by platform.',
      labelNames: ['platform'] as const,
      registers,
    }),
    modelLatency: new Histogram({
      name: `${PREFIX}model_latency_seconds`,
      help: 'Duration of one model call, by model tier and outcome (ok or error).',
      labelNames: ['tier', 'outcome'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    modelTokens: new Histogram({
      name: `${PREFIX}model_tokens`,
      help: 'Tokens of one successful model call, by model tier and kind (prompt or completion).',
      labelNames: ['tier', 'kind'] as const,
      buckets: [16, 64, 256, 1024, 4096, 16384, 65536],
      registers,
    }),
    pipelineLatency: new Histogram({
      name: `${PREFIX}pipeline_latency_seconds`,
      help: 'From our receipt of a message to the platform accepting its answer, by platform.',
      labelNames: ['platform'] as const,
      buckets: [0.25, 0.5, 1, 2, 3, 5, 8, 13, 21, 34, 60, 120, 300],
      registers,
    }),
  }
}

/** The reply queue's depth and bound, read at scrape time. */
function queueGauges(registers: Registers, queue: { depth?: () => Promise<number>; highWater: number }) {
  new Gauge({
    name: `${PREFIX}reply_queue_depth`,
    help: 'Reply jobs waiting or running (read from the database at scrape time).',
    registers,
    async collect() {
      if (queue.depth) this.set(await queue.depth())
    },
  })
  new Gauge({
    name: `${PREFIX}reply_queue_high_water`,
    help: 'REPLY_QUEUE_HIGH_WATER: the depth above which receivers acknowledge under back-pressure.',
    registers,
    collect() {
      if (queue.depth) this.set(queue.highWater)
    },
  })
  new Gauge({
    name: `${PREFIX}reply_queue_over_high_water`,
    help: '1 while the reply queue is deeper than REPLY_QUEUE_HIGH_WATER, else 0.',
    registers,
    async collect() {
      // The source reads once for the concurrent collects of one scrape.
      if (queue.depth) this.set((await queue.depth()) > queue.highWater ? 1 : 0)
    },
  })
}

export type Metrics = ReturnType<typeof createMetrics>

declare global {
  var __replypilotMetrics: Metrics | undefined
}

export function getMetrics(): Metrics {
  globalThis.__replypilotMetrics ??= createMetrics()
  return globalThis.__replypilotMetrics
}

/** One webhook delivery's outcome: `accepted` (acknowledged with 200) or why it was not. */
export function recordWebhook(platform: WebhookPlatform, outcome: WebhookOutcome): void {
  const metrics = getMetrics()
  if (outcome === 'accepted') metrics.webhooksReceived.inc({ platform })
  else metrics.webhooksRejected.inc({ platform, reason: outcome })
}

/** The refusal reason of a receiver's typed error (AppError codes), for recordWebhook. */
export function webhookRejectReason(code: string, unauthorized: 'bad_secret' | 'bad_signature') {
  switch (code) {
    case 'NOT_FOUND':
      return 'unknown_channel'
    case 'AUTH_FAILED':
      return unauthorized
    case 'VALIDATION_ERROR':
      return 'bad_body'
    default:
      return 'internal_error'
  }
}

export function recordInboundMessage(platform: ReplyPlatform, stored: boolean): void {
  getMetrics().inboundMessages.inc({ platform, result: stored ? 'stored' : 'duplicate' })
}

/** Why an event of a signed, well-formed delivery was left out (the delivery itself is acknowledged). */
/** `member_chat`: a member's private chat with a bot, for their alerts (docs/decisions/069). */
export type WebhookSkipReason = 'unsupported' | 'malformed' | 'unknown_channel' | 'own_echo' | 'member_chat'

export function recordSkippedEvent(platform: ReplyPlatform, reason: WebhookSkipReason): void {
  getMetrics().webhookEventsSkipped.inc({ platform, reason })
}

/** An event used without a field we would like (`timestamp`: our receipt's time stands in). */
export function recordIncompleteEvent(platform: ReplyPlatform, missing: 'timestamp'): void {
  getMetrics().webhookEventsIncomplete.inc({ platform, missing })
}

/** A reply job's end: sent (with the time from our receipt of the message), failed, or left to a person. */
export function recordReply(
  platform: ReplyPlatform,
  outcome: { kind: 'sent'; pipelineSeconds: number } | { kind: 'failed' } | { kind: 'not-answered' },
): void {
  const metrics = getMetrics()
  if (outcome.kind === 'sent') {
    metrics.repliesSent.inc({ platform })
    metrics.pipelineLatency.observe({ platform }, Math.max(0, outcome.pipelineSeconds))
  } else if (outcome.kind === 'failed') {
    metrics.repliesFailed.inc({ platform })
  } else {
    metrics.repliesNotAnswered.inc({ platform })
  }
}

/** One model call: its duration and, when it answered, its token usage. */
export function recordModelCall(
  tier: string,
  call: { latencyMs: number; usage?: { promptTokens: number; completionTokens: number } },
): void {
  const metrics = getMetrics()
  metrics.modelLatency.observe({ tier, outcome: call.usage ? 'ok' : 'error' }, call.latencyMs / 1000)
  if (call.usage) {
    metrics.modelTokens.observe({ tier, kind: 'prompt' }, call.usage.promptTokens)
    metrics.modelTokens.observe({ tier, kind: 'completion' }, call.usage.completionTokens)
  }
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = getMetrics()
  return { contentType: registry.contentType, body: await registry.metrics() }
}

export type MetricsAccess = 'allowed' | 'unauthorized' | 'not-found'

/**
 * Who may read /metrics. With METRICS_TOKEN set: only `Authorization: Bearer <token>` (compared in constant
 * time). Without it: open on the embedded default (a laptop, a trial), and absent (404) in a strict production
 * configuration, where the metrics would otherwise be public.
 */
export function metricsAccess(
  config: { metricsToken: string | undefined; embedded: boolean },
  authorization: string | null | undefined,
): MetricsAccess {
  if (!config.metricsToken) return config.embedded ? 'allowed' : 'not-found'
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  if (!match) return 'unauthorized'
  // Digests have one length whatever was presented, so the comparison takes the same time.
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(match[1]), digest(config.metricsToken)) ? 'allowed' : 'unauthorized'
}

/** The HTTP answer for a refused scrape. */
export function metricsRefusal(access: Exclude<MetricsAccess, 'allowed'>): {
  status: number
  headers: Record<string, string>
  body: string
} {
  return access === 'unauthorized'
    ? {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain' },
        body: 'Unauthorized\n',
      }
    : { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'Not found\n' }
}
