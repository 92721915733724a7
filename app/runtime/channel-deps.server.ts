import { resumeSchedulerOf } from '~/jobs/conversation-resume.server'
import type { PersonReplyDeps } from '~/services/conversations/person-reply.server'
import type { ResumeScheduler } from '~/services/conversations/takeover.server'
import type { PlatformDeps } from '~/services/channels/platform-deps.server'
import type { HealthCheckDeps } from '~/services/channels/health-check.server'
import type { Runtime } from '~/runtime/runtime.server'

/** What the channel services need from the process: the public URL, the token key, the platform clients. */
export function platformDeps({
  config,
  telegram,
  graph,
}: Pick<Runtime, 'config' | 'telegram' | 'graph'>): PlatformDeps {
  return {
    publicUrl: config.publicUrl,
    telegramUpdates: config.telegramUpdates,
    encryptionKey: config.encryptionKey,
    telegram,
    graph,
    meta: config.meta,
  }
}

/** Assigning in Channel Details: the platform clients (it may start receiving) and the log for what failed. */
export function goLiveDeps(runtime: Pick<Runtime, 'config' | 'telegram' | 'graph' | 'logger'>) {
  return { ...platformDeps(runtime), logger: runtime.logger }
}

/** What the channel health check asks the platforms with (docs/decisions/046). */
export function healthCheckDeps({
  config,
  telegram,
  graph,
}: Pick<Runtime, 'config' | 'telegram' | 'graph'>): HealthCheckDeps {
  return { telegram, graph, encryptionKey: config.encryptionKey, meta: config.meta }
}

/** Sends a paused conversation's hand-back job: for the inbox, and for replies written on the platform (webhooks). */
export function resumeScheduler({ boss }: Pick<Runtime, 'boss'>): ResumeScheduler {
  return resumeSchedulerOf(boss)
}

/** What the inbox's services need from the process: the platform clients, the token key and the job queue. */
export function conversationDeps({
  config,
  telegram,
  graph,
  boss,
}: Pick<Runtime, 'config' | 'telegram' | 'graph' | 'boss'>): PersonReplyDeps {
  return {
    telegram,
    graph,
    encryptionKey: config.encryptionKey,
    boss,
    scheduleResume: resumeScheduler({ boss }),
  }
}
