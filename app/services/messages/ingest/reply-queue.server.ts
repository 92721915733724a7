import { randomFillSync } from 'node:crypto'
import type { PgBoss, SendOptions } from 'pg-boss'
import { jobChannelOf } from '~/db/jobs.server'

/** The queue of reply jobs: one job per inbound text message, ordered per conversation. */
export const REPLY_QUEUE = 'reply'

export type ReplyJobData = { messageId: string }

/**
 * What sending a reply job needs of pg-boss, and its schema when the jobs sent with a burst wait are to be announced
 * to the workers (replyWakeupSql): without it, such a job is taken at a worker's next poll.
 */
export type ReplyQueue = {
  send(name: string, data: object, options: SendOptions): Promise<string | null>
  schema?: string
}

/** The reply queue of this pg-boss, its delayed jobs announced. */
export const announcingReplyQueue = (boss: PgBoss, schema: string): ReplyQueue => ({
  send: (name, data, options) => boss.send(name, data, options),
  schema,
})

let lastMs = 0
let counter = 0

// Random bytes drawn 4 kB at a time: a draw per id (two system calls) was 3% of the receivers' CPU under load.
const entropy = Buffer.alloc(4096)
let entropyUsed = entropy.length
function randomBytesOf(size: number): Buffer {
  if (entropyUsed + size > entropy.length) {
    randomFillSync(entropy)
    entropyUsed = 0
  }
  entropyUsed += size
  return Buffer.from(entropy.subarray(entropyUsed - size, entropyUsed))
}

/**
 * A time-ordered UUID (version 7) that also grows within a millisecond in this process. pg-boss orders a key's
 * jobs by `created_on`, then by id; on PGlite `created_on` has millisecond resolution, so two messages of one
 * conversation stored in the same millisecond would otherwise be ordered by a random id.
 */
export function nextJobId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    counter = randomBytesOf(2).readUInt16BE() & 0x1ff // leaves room to count up within the millisecond
  } else {
    counter += 1
    if (counter > 0xfff) {
      lastMs += 1 // borrow the next millisecond rather than wrap
      counter = 0
    }
  }
  const bytes = randomBytesOf(16)
  bytes.writeUIntBE(lastMs, 0, 6)
  bytes[6] = 0x70 | (counter >> 8)
  bytes[7] = counter & 0xff
  bytes[8] = 0x80 | (bytes[8] & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * The queue is `key_strict_fifo` keyed by conversation: a conversation's jobs run one at a time in the order they
 * were sent, a job being retried holds back the ones after it, and other conversations go on meanwhile. With a
 * burst wait, the job starts that many seconds after its message (docs/decisions/041).
 */
export function replyJobOptions(conversationId: string, burstWaitSeconds = 0): SendOptions {
  return {
    singletonKey: conversationId,
    id: nextJobId(),
    ...(burstWaitSeconds > 0 && { startAfter: burstWaitSeconds }),
  }
}

/**
 * The workers are told of reply jobs on pg-boss's own NOTIFY channel: pg-boss says `reply` when its send stored a
 * job that is due now; ours says `reply@<ms>:<count>` for `count` jobs due in `ms` milliseconds (a receivers'
 * batch, a job with a burst wait), so that each is taken as soon as it is due (jobs/reply-wakeups).
 */
const WAKEUP = new RegExp(`^${REPLY_QUEUE}@(\\d{1,9}):(\\d{1,6})$`)

export function readReplyWakeup(payload: string): { ms: number; count: number } | undefined {
  const match = WAKEUP.exec(payload)
  return match ? { ms: Number(match[1]), count: Number(match[2]) } : undefined
}

/** The announcement, in SQL, of `count` jobs due in `ms` milliseconds, on pg-boss's channel for `schema`. */
export const replyWakeupSql = (schema: string, ms: number, count: number) =>
  `select pg_notify(${jobChannelOf(schema)}, '${REPLY_QUEUE}@${Math.round(ms)}:${count}')`

/**
 * The announcement, in SQL, of the jobs in `inserted` (a relation of pg-boss's job rows with `start_after`): one
 * NOTIFY per distinct delay, with how many jobs are due then. `channel` is pg-boss's channel expression for its
 * schema.
 */
export function replyWakeupsSql(channel: string, inserted: string, now: string): string {
  return `select pg_notify(${channel}, '${REPLY_QUEUE}@' || d.ms || ':' || d.jobs)
    from (
      select greatest(0, ceil(extract(epoch from (start_after - ${now})) * 1000))::bigint as ms, count(*)::int as jobs
      from ${inserted} group by 1
    ) d`
}
