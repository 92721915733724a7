import type { PgBoss } from 'pg-boss'
import { readReplyWakeup, REPLY_QUEUE } from '~/services/messages/ingest/reply-queue.server'

/**
 * Who wakes the reply workers of this process, and how many (docs/decisions/050). pg-boss wakes every worker of a
 * queue on each NOTIFY, whatever the number of jobs it sent. Here a NOTIFY for the reply queue wakes one idle
 * worker per job it announces, in turn, and a job sent with a burst wait (no NOTIFY from pg-boss: it is not due
 * yet) is announced with its delay and woken when it is due, instead of at the workers' next poll.
 */
export class ReplyWakeups {
  readonly #idle = new Set<string>()
  readonly #timers = new Set<NodeJS.Timeout>()
  #wake: (workerId: string) => void = () => undefined

  /** The worker that is told to fetch now (pg-boss's notifyWorker). */
  attach(wake: (workerId: string) => void) {
    this.#wake = wake
  }

  /** A worker with no job in hand. */
  idle(workerId: string) {
    this.#idle.add(workerId)
  }

  /** A worker that took a job. */
  busy(workerId: string) {
    this.#idle.delete(workerId)
  }

  /** Wakes `count` idle workers, each a different one, the longest idle first. */
  wake(count = 1) {
    for (let i = 0; i < count; i++) {
      const [workerId] = this.#idle
      if (workerId === undefined) return
      // To the back of the line: the next wake goes to another worker while this one fetches.
      this.#idle.delete(workerId)
      this.#idle.add(workerId)
      this.#wake(workerId)
    }
  }

  /** Wakes `count` workers once `ms` have passed. */
  wakeAfter(ms: number, count: number) {
    if (ms <= 0) return this.wake(count)
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      this.wake(count)
    }, ms)
    timer.unref()
    this.#timers.add(timer)
  }

  /** A NOTIFY payload: pg-boss's `reply` (a job due now) or an announcement. False: another queue's. */
  handle(payload: string): boolean {
    if (payload === REPLY_QUEUE) {
      this.wake(1)
      return true
    }
    const announced = readReplyWakeup(payload)
    if (!announced) return false
    this.wakeAfter(announced.ms, Math.min(announced.count, MAX_WAKES))
    return true
  }

  stop() {
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
    this.#idle.clear()
  }
}

/** More wakes than this at once would only wake workers that find nothing: every worker is awake by then. */
const MAX_WAKES = 256

type Listen = (
  channel: string,
  onNotification: (payload: string) => void,
  onReconnect: () => void,
) => Promise<unknown>

const wakeups = new WeakMap<PgBoss, ReplyWakeups>()

/**
 * Puts a ReplyWakeups between pg-boss's LISTEN and its workers: the reply queue's notifications go to it, every
 * other queue's to pg-boss as before. Called before `boss.start()`, which opens the listener. pg-boss has no
 * option for this; its database's `listen` is wrapped as its `executeSql` is (queues.server, ADR 012 pins it).
 */
export function routeReplyWakeups(boss: PgBoss): ReplyWakeups {
  const routed = new ReplyWakeups()
  routed.attach((workerId) => boss.notifyWorker(workerId))
  const db = boss.getDb() as { listen?: Listen }
  const listen = db.listen
  if (listen) {
    db.listen = (channel, onNotification, onReconnect) =>
      listen.call(
        db,
        channel,
        (payload) => {
          if (!routed.handle(payload)) onNotification(payload)
        },
        onReconnect,
      )
  }
  wakeups.set(boss, routed)
  return routed
}

/** This boss's ReplyWakeups (one that wakes through pg-boss alone when none was routed, as for a test's boss). */
export function replyWakeupsOf(boss: PgBoss): ReplyWakeups {
  let routed = wakeups.get(boss)
  if (!routed) {
    routed = new ReplyWakeups()
    routed.attach((workerId) => boss.notifyWorker(workerId))
    wakeups.set(boss, routed)
  }
  return routed
}
