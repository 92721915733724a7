import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { channels, type Channel } from '~/db/schema'
import { isUuid } from '~/lib/shared/input'

/**
 * The channels webhooks name, read fresh from the database for each delivery, but one query for all the
 * deliveries that arrive in the same turn of the event loop (docs/decisions/024): under load the receivers'
 * lookups cost one round trip between them rather than one each. Not scoped by a user on purpose (see
 * findChannelForWebhook): the caller authenticates the delivery right after.
 */
export type WebhookChannels = {
  byId(id: string): Promise<Channel | undefined>
  /** Meta's keys: `facebook` + page id, `whatsapp` + phone number id. */
  byPlatformId(platform: 'facebook' | 'whatsapp', platformChannelId: string): Promise<Channel | undefined>
}

/** Calls made in one turn of the event loop share one `load` of all their keys. */
function coalesce<V>(
  load: (keys: string[]) => Promise<Map<string, V>>,
): (key: string) => Promise<V | undefined> {
  let pending:
    | Map<string, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]>
    | undefined
  return (key) =>
    new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map<
          string,
          { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]
        >()
        pending = batch
        setImmediate(() => {
          pending = undefined
          load([...batch.keys()]).then(
            (found) => batch.forEach((waiters, k) => waiters.forEach((w) => w.resolve(found.get(k)))),
            (error: unknown) => batch.forEach((waiters) => waiters.forEach((w) => w.reject(error))),
          )
        })
      }
      const waiters = pending.get(key) ?? []
      waiters.push({ resolve, reject })
      pending.set(key, waiters)
    })
}

export function createWebhookChannels(db: Database): WebhookChannels {
  // Prepared once: building the select anew for every lookup was most of drizzle's share of the receivers' CPU.
  const selectByIds = db
    .select()
    .from(channels)
    .where(sql`${channels.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('webhook_channels_by_id')
  const selectByKeys = db
    .select()
    .from(channels)
    .where(
      sql`(${channels.platformName}, ${channels.platformChannelId}) in (
        select * from unnest(${sql.placeholder('platforms')}::text[], ${sql.placeholder('platformIds')}::text[]))`,
    )
    .prepare('webhook_channels_by_platform_id')
  const byId = coalesce(async (ids) => {
    const rows = await selectByIds.execute({ ids })
    return new Map(rows.map((row) => [row.id, row]))
  })
  const byKey = coalesce(async (keys) => {
    const pairs = keys.map((key) => key.split('\u0000'))
    const rows = await selectByKeys.execute({
      platforms: pairs.map(([platform]) => platform),
      platformIds: pairs.map(([, id]) => id),
    })
    return new Map(rows.map((row) => [`${row.platformName}\u0000${row.platformChannelId}`, row]))
  })
  return {
    byId: async (id) => (isUuid(id) ? byId(id.toLowerCase()) : undefined),
    byPlatformId: (platform, platformChannelId) => byKey(`${platform}\u0000${platformChannelId}`),
  }
}
