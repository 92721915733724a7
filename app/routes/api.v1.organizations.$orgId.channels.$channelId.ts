import { endpoints } from '~/lib/api/endpoints'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { getChannel, toChannelView, updateChannel } from '~/services/channels/channels.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import { setChannelWebhook } from '~/services/channels/webhook.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { platformDeps } from '~/runtime/channel-deps.server'

const route = apiRoute(
  handle(endpoints.getChannel, async ({ caller, params }) => ({
    data: toChannelView(
      await getChannel(await scopeOf(caller, params.orgId), params.channelId),
      caller.runtime.config,
    ),
  })),
  handle(endpoints.updateChannel, async ({ caller, params, body }) => {
    const scope = await scopeOf(caller, params.orgId)
    const { webhookSubscribed, ...patch } = body
    let channel = await updateChannel(scope, params.channelId, patch)
    if (webhookSubscribed !== undefined) {
      channel = await setChannelWebhook(
        scope,
        params.channelId,
        webhookSubscribed,
        platformDeps(caller.runtime),
      )
    }
    return { data: toChannelView(channel, caller.runtime.config), message: 'Channel updated' }
  }),
  handle(endpoints.deleteChannel, async ({ caller, params }) => {
    const { logger } = caller.runtime
    const scope = await scopeOf(caller, params.orgId)
    const { warning } = await deleteChannel(scope, params.channelId, platformDeps(caller.runtime))
    if (warning)
      logger.warn('channel deleted; the platform could not be told', {
        channelId: params.channelId,
        reason: warning,
      })
    return { data: null, message: CHANNEL_TEXTS.deleted }
  }),
)

export const loader = route
export const action = route
