import { endpoints } from '~/lib/api/endpoints'
import { CHANNEL_MESSAGES } from '~/lib/channels'
import { getChannel, toChannelView, updateChannel } from '~/services/channels/channels.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import { apiRoute, handle, scopeOf } from '~/utils/api.server'

const route = apiRoute(
  handle(endpoints.getChannel, async ({ caller, params }) => ({
    data: toChannelView(
      await getChannel(await scopeOf(caller, params.orgId), params.channelId),
      caller.runtime.config.publicUrl,
    ),
  })),
  handle(endpoints.updateChannel, async ({ caller, params, body }) => ({
    data: toChannelView(
      await updateChannel(await scopeOf(caller, params.orgId), params.channelId, body),
      caller.runtime.config.publicUrl,
    ),
    message: 'Channel updated',
  })),
  handle(endpoints.deleteChannel, async ({ caller, params }) => {
    const { config, telegram, logger } = caller.runtime
    const { warning } = await deleteChannel(await scopeOf(caller, params.orgId), params.channelId, {
      publicUrl: config.publicUrl,
      encryptionKey: config.encryptionKey,
      telegram,
    })
    if (warning)
      logger.warn('channel deleted; the platform could not be told', {
        channelId: params.channelId,
        reason: warning,
      })
    return { data: null, message: CHANNEL_MESSAGES.deleted }
  }),
)

export const loader = route
export const action = route
