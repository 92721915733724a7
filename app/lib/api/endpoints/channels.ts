import { z } from 'zod'
import {
  facebookPageSchema,
  facebookPagesSchema,
  whatsappConnectSchema,
} from '~/lib/channels/connect-schemas'
import { CHANNEL_STATUSES, CHANNEL_TYPES, PLATFORM_NAMES } from '~/lib/channels/channels'
import { CHANNEL_HEALTH_REASONS, CHANNEL_HEALTH_STATUSES } from '~/lib/channels/health'
import { assignSchema, autoResumeMinutesSchema } from '~/lib/conversations/conversations'
import { hasNoNul, idSchema, NUL_MESSAGE } from '~/lib/shared/input'
import { telegramTokenSchema } from '~/lib/channels/telegram'
import { defineEndpoint } from '~/lib/api/contract'
import { orgParams } from './shared'

export const channelSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  platformName: z.enum(PLATFORM_NAMES),
  platformChannelId: z.string(),
  channelType: z.enum(CHANNEL_TYPES),
  status: z.enum(CHANNEL_STATUSES),
  statusReason: z.string().nullable(),
  agentId: z.string().nullable(),
  agentEnabled: z.boolean(),
  webhookSubscribed: z.boolean(),
  webhookUrl: z.string().nullable(),
  autoResumeMinutes: z.number().int(),
  metadata: z.record(z.string(), z.union([z.string(), z.boolean()])),
  createdAt: z.string(),
})

/** A Telegram bot is connected by its token; the server looks the bot up with getMe. */
const newTelegramChannelSchema = z.object({
  platformName: z.literal('telegram'),
  botToken: telegramTokenSchema,
})

/** A Facebook page chosen in the login, connected as one channel (the server checks its token at Graph). */
const newFacebookChannelSchema = facebookPageSchema.extend({ platformName: z.literal('facebook') })

/** One channel of a create request: a Telegram bot by its token, or a Facebook page. */
const newChannelSchema = z.discriminatedUnion(
  'platformName',
  [newTelegramChannelSchema, newFacebookChannelSchema],
  {
    error:
      'platformName must be telegram or facebook (WhatsApp numbers connect through /channels/whatsapp/connect)',
  },
)

const CHANNEL_NAME_REQUIRED = 'Channel name is required'
const switchOf = (field: string) => z.boolean({ error: `${field} must be true or false` })

/** PATCH .../channels/{id}: every field optional; a field left out stays as it is. */
const patchChannelBodySchema = z.object({
  name: z
    .string({ error: CHANNEL_NAME_REQUIRED })
    .trim()
    .min(1, CHANNEL_NAME_REQUIRED)
    .max(100, 'Channel name must be at most 100 characters')
    .refine(hasNoNul, NUL_MESSAGE)
    .optional(),
  agentEnabled: switchOf('agentEnabled').optional(),
  webhookSubscribed: switchOf('webhookSubscribed').optional(),
  autoResumeMinutes: autoResumeMinutesSchema.optional(),
  defaultAssigneeUid: assignSchema.shape.assigneeUid.optional().meta({
    description:
      'Who gets the conversations that need a person (a handoff, a failed reply): a member’s uid; null: nobody',
  }),
})

const channelParams = orgParams.extend({ channelId: idSchema })

/** A channel's health (docs/decisions/046): why it needs attention, each reason with the action that fixes it. */
export const channelHealthSchema = z.object({
  channelId: z.string(),
  name: z.string(),
  platform: z.enum(PLATFORM_NAMES),
  status: z.enum(CHANNEL_HEALTH_STATUSES),
  reasons: z.array(
    z.object({
      code: z.enum(CHANNEL_HEALTH_REASONS),
      message: z.string(),
      action: z.object({ label: z.string(), href: z.string() }),
    }),
  ),
  checkedAt: z.string().nullable(),
})

export const channelEndpoints = {
  listChannels: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/channels',
    operationId: 'listChannels',
    summary: "The organization's channels (never their tokens), optionally for one platform",
    tag: 'Channels',
    params: orgParams,
    query: z.object({ platformName: z.enum(PLATFORM_NAMES).optional() }),
    response: z.array(channelSchema),
  }),
  listChannelsHealth: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/channels/health',
    operationId: 'listChannelsHealth',
    summary:
      "Each channel's health: the last check at its platform and what its own state says (webhook off, agent archived, deliveries failing), each reason with its fix",
    tag: 'Channels',
    params: orgParams,
    response: z.array(channelHealthSchema),
  }),
  checkChannel: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/channels/{channelId}/check',
    operationId: 'checkChannel',
    summary:
      "Ask the channel's platform now whether its token still works (Telegram getMe; Meta debug_token and the page or WABA subscription) and record the answer",
    tag: 'Channels',
    params: channelParams,
    response: channelHealthSchema,
  }),
  createChannels: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/channels',
    operationId: 'createChannels',
    summary:
      'Connect a channel, or several with {channels: [...]}: a Telegram bot by its token, Facebook pages by their page tokens (with the optional userAccessToken of the same login for long-lived ones)',
    tag: 'Channels',
    params: orgParams,
    // One channel or {channels: [...]}: a single one is read as a list of one, so errors name the field.
    body: z.preprocess(
      (value) => (value && typeof value === 'object' && 'channels' in value ? value : { channels: [value] }),
      z.object({
        channels: z.array(newChannelSchema).min(1).max(20),
        userAccessToken: facebookPagesSchema.shape.userAccessToken,
      }),
    ),
    response: z.array(channelSchema),
    successStatus: 201,
  }),
  getChannel: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/channels/{channelId}',
    operationId: 'getChannel',
    summary: 'One channel',
    tag: 'Channels',
    params: channelParams,
    response: channelSchema,
  }),
  updateChannel: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}/channels/{channelId}',
    operationId: 'updateChannel',
    summary:
      'Change only the fields given: rename a channel, switch its agent on or off, or switch its webhook subscription (set or removed at the platform)',
    tag: 'Channels',
    params: channelParams,
    body: patchChannelBodySchema,
    response: channelSchema,
  }),
  deleteChannel: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/channels/{channelId}',
    operationId: 'deleteChannel',
    summary: 'Disconnect and delete a channel (its webhook is removed at the platform)',
    tag: 'Channels',
    params: channelParams,
    response: z.null(),
  }),
  assignChannelAgent: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/channels/{channelId}/agent',
    operationId: 'assignChannelAgent',
    summary: 'Assign an active agent to the channel (re-send to switch it on or off)',
    tag: 'Channels',
    params: channelParams,
    query: z.object({ platformName: z.enum(PLATFORM_NAMES).optional() }),
    body: z.object({
      agentId: z.string({ error: 'Please select an agent' }).min(1, 'Please select an agent'),
      agentEnabled: switchOf('agentEnabled').default(true),
    }),
    response: channelSchema,
  }),
  removeChannelAgent: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/channels/{channelId}/agent',
    operationId: 'removeChannelAgent',
    summary: "Remove the channel's agent",
    tag: 'Channels',
    params: channelParams,
    response: channelSchema,
  }),
  connectWhatsApp: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/channels/whatsapp/connect',
    operationId: 'connectWhatsApp',
    summary:
      'Connect the WhatsApp number Embedded Signup shared: the code exchanged, the number registered with the PIN (when given), the app subscribed to the WABA',
    tag: 'Channels',
    params: orgParams,
    body: whatsappConnectSchema,
    response: z.object({
      channel: channelSchema,
      phoneDetails: z.object({ verified_name: z.string(), display_phone_number: z.string() }),
      wabaDetails: z.object({ id: z.string(), name: z.string() }).catchall(z.unknown()),
    }),
    successStatus: 201,
  }),
}
