import type { PlatformDeps } from '~/services/channels/platform-deps.server'
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
