/** Limits of the reply pipeline, named once. Client-safe (the conversation views will show the same texts). */

/** The longest text one platform message may carry (UTF-16 code units, as the platforms count). */
export const PLATFORM_TEXT_LIMITS = {
  telegram: 4096,
  facebook: 2000,
  whatsapp: 4096,
} as const

/** The largest webhook body a receiver reads; anything bigger is refused with 413 before it is parsed. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024

/** How many messages of a conversation (both directions, oldest first) go into a reply's prompt by default. */
export const DEFAULT_CONVERSATION_WINDOW = 20
/** REPLY_QUEUE_HIGH_WATER unset: reply jobs waiting or running above which receivers acknowledge under back-pressure. */
export const DEFAULT_REPLY_QUEUE_HIGH_WATER = 1000

/**
 * Reply jobs one worker process runs at once (REPLY_WORKER_CONCURRENCY), by database. A job mostly waits on the
 * model and the platform, so a process keeps many in flight on PostgreSQL; the embedded PGlite has one connection
 * that every job and every webhook share, where more work loops only add fetches. Measured: docs/decisions/020.
 */
export const DEFAULT_REPLY_WORKER_CONCURRENCY = { postgres: 64, pglite: 8 } as const
export const MAX_REPLY_WORKER_CONCURRENCY = 256

/**
 * The conversation in a prompt is trimmed, oldest first, to about this many tokens (counted as 4 characters a
 * token: no tokenizer runs on the hot path, and the agent's own max tokens bounds the answer separately).
 */
export const PROMPT_HISTORY_TOKEN_BUDGET = 6000
export const CHARACTERS_PER_TOKEN = 4

/**
 * "typing..." is shown once the model has taken this long (a faster answer needs no indicator), then renewed
 * every TYPING_RENEW_MS: Telegram shows it for 5 s or until the bot sends.
 */
export const TYPING_DELAY_MS = 500
export const TYPING_RENEW_MS = 4500

/**
 * A model's or platform's own "retry after" up to this long is slept through by the worker (Telegram's flood
 * control asks for minutes at times). The conversation's later messages wait anyway (strict order), and a
 * sleeping job costs one of the worker's loops, no CPU; its heartbeat keeps it alive and a shutdown cuts the
 * sleep short (the job runs again elsewhere). Three such waits (the retry limit) stay within the job's 15-minute
 * expiry. A longer one fails the message at once, with the platform's reason.
 */
export const MAX_SLEPT_RETRY_AFTER_MS = 4 * 60_000

/** Failure reasons stored on a message, shown to the organization. */
export const REPLY_FAILURES = {
  emptyAnswer: 'The model returned an empty answer',
  tokenInvalid: 'The channel token is invalid or expired: reconnect the channel',
  /** Stored while a person answers the conversation: the AI leaves it to them. */
  aiPaused: 'The AI is paused: a person is answering',
  /** The model's answer came after a person took over: it was kept, not sent. */
  answerWithheld: 'Not sent: a person took over the conversation',
  /** Outside the agent's office hours with "leave it to a person": stored, not answered. */
  outOfHours: 'Outside office hours: left to a person',
  /** Only things the agent cannot read (a voice note, a photo...): it said so, a person should look. */
  unreadable: 'The agent reads only text: left to a person',
  /** The agent answers from knowledge and none of it matched: it said it does not know. */
  noKnowledge: "No knowledge answers this: the agent said it doesn't know, left to a person",
} as const

/** Why a conversation needs a person (the inbox's badge and the conversation view show it). */
export const ATTENTION_REASONS = {
  handoff: (reason: string) => `The agent handed over: ${reason}`,
  outOfHours: 'The customer wrote outside office hours',
  unreadable: (labels: string[]) => `The customer sent something the agent cannot read: ${labels.join(', ')}`,
  noKnowledge: (question: string) =>
    `No knowledge answers the customer's question: “${question.length > 120 ? `${question.slice(0, 119)}…` : question}”`,
} as const

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * Splits a text into parts of at most `limit` characters for platforms that refuse longer messages. It breaks
 * at a paragraph or line break in the second half of a part when there is one, else at the last whitespace,
 * and cuts a word only when a single word is longer than the limit (never inside a surrogate pair). Whitespace
 * at the breaks is dropped; no part is empty.
 */
export function splitMessage(text: string, limit: number): string[] {
  if (limit < 2) throw new Error('limit must be at least 2')
  const parts: string[] = []
  let rest = text.trim()
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1)
    const minBreak = Math.floor(limit / 2)
    let cut = -1
    for (const separator of ['\n\n', '\n']) {
      const at = window.lastIndexOf(separator, limit)
      if (at >= minBreak) {
        cut = at
        break
      }
    }
    if (cut < 0) {
      const match = /\s(?=\S*$)/.exec(window)
      cut = match && match.index > 0 ? match.index : -1
    }
    if (cut <= 0) {
      cut = limit
      if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut -= 1
    }
    const part = rest.slice(0, cut).trimEnd()
    if (part) parts.push(part)
    rest = rest.slice(cut).trimStart()
  }
  if (rest) parts.push(rest)
  return parts
}

/** A rough token count for budgeting the prompt. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN)
}
