import type { Channel } from '~/db/schema'
import type { FacebookPagesInput } from '~/lib/channels/connect-schemas'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { connectFacebookPages } from './facebook.server'
import { connectTelegramBot } from './telegram.server'
import type { PlatformDeps } from './platform-deps.server'

export type NewChannelRequest =
  | { platformName: 'telegram'; botToken: string }
  | ({ platformName: 'facebook' } & FacebookPagesInput['pages'][number])

/**
 * The product API's create (spec section 7: a channel or {channels: [...]}): the Facebook pages of the request
 * together (all or none, one channel per page), then each Telegram bot. Answers in the request's order.
 */
export async function createChannels(
  scope: OrganizationScope,
  request: { channels: NewChannelRequest[]; userAccessToken?: string },
  deps: PlatformDeps,
): Promise<Channel[]> {
  const pages = request.channels.flatMap((c) => (c.platformName === 'facebook' ? [c] : []))
  const connectedPages =
    pages.length > 0
      ? await connectFacebookPages(scope, { pages, userAccessToken: request.userAccessToken }, deps)
      : []
  const byPage = new Map(connectedPages.map((channel) => [channel.platformChannelId, channel]))
  const created: Channel[] = []
  for (const channel of request.channels) {
    if (channel.platformName === 'facebook') {
      const page = byPage.get(channel.id)
      if (page && !created.includes(page)) created.push(page)
    } else {
      created.push(await connectTelegramBot(scope, channel, deps))
    }
  }
  return created
}
