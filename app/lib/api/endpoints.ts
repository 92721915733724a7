import { z } from 'zod'
import {
  agentListQuerySchema,
  AGENT_STATUS_VALUES,
  createAgentSchema,
  MODEL_TYPES,
  runAgentSchema,
  updateAgentSchema,
} from '~/lib/agent-schemas'
import {
  INVITATION_STATUSES,
  inviteMemberSchema,
  organizationNameSchema,
  ORGANIZATION_PLANS,
  ORGANIZATION_ROLES,
} from '~/lib/organization-schemas'
import {
  facebookPageSchema,
  facebookPagesSchema,
  pageSendSchema,
  pageSubscribeSchema,
  whatsappConnectSchema,
} from '~/lib/channel-connect-schemas'
import { CONNECTION_STATUSES, PLATFORM_NAMES } from '~/lib/channels'
import { hasNoNul, idSchema, NUL_MESSAGE } from '~/lib/input'
import { telegramTokenSchema } from '~/lib/telegram'
import { defineEndpoint } from './contract'

/** An identifier that is not one of our rows' (a Firebase uid). */
const id = z.string().min(1).max(200)
const orgParams = z.object({ orgId: idSchema })

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.enum(ORGANIZATION_PLANS),
  role: z.enum(ORGANIZATION_ROLES),
})

const organizationDetailSchema = organizationSchema.extend({ createdAt: z.string(), updatedAt: z.string() })

const memberSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  role: z.enum(ORGANIZATION_ROLES),
})

/** An invitation as the organization's owners see it: by uid, the invitee is "Invited user", never an email. */
export const organizationInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string().nullable(),
  invitee: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  status: z.enum(INVITATION_STATUSES),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
})

/** An invitation as its invitee sees it. */
export const receivedInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
})

const invitationId = z.uuid('Invalid invitation id')

export const profileSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  createdAt: z.string(),
  organizations: z.array(organizationSchema),
})

export const agentSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  readableId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  modelType: z.enum(MODEL_TYPES),
  creativityLevel: z.number(),
  systemPrompt: z.string(),
  maxTokens: z.number().nullable(),
  topP: z.number().nullable(),
  topK: z.number().nullable(),
  status: z.enum(AGENT_STATUS_VALUES),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})

export const agentRunResultSchema = z.object({
  output: z.string(),
  executionId: z.string(),
  modelUsed: z.string(),
  tokensUsed: z.object({ prompt: z.number(), completion: z.number(), total: z.number() }),
  latencyMs: z.number(),
  timestamp: z.string(),
})

const agentParams = orgParams.extend({ agentId: idSchema })

export const channelSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  platformName: z.enum(PLATFORM_NAMES),
  platformChannelId: z.string(),
  channelType: z.enum([
    'facebook_page',
    'telegram_bot',
    'whatsapp_number',
    'instagram_account',
    'tiktok_account',
  ]),
  status: z.enum(['active', 'error', 'pending', 'disconnected']),
  statusReason: z.string().nullable(),
  agentId: z.string().nullable(),
  agentEnabled: z.boolean(),
  webhookSubscribed: z.boolean(),
  webhookUrl: z.string().nullable(),
  metadata: z.record(z.string(), z.union([z.string(), z.boolean()])),
  createdAt: z.string(),
})

/** A Telegram bot is connected by its token; the server looks the bot up with getMe. */
export const newTelegramChannelSchema = z.object({
  platformName: z.literal('telegram'),
  botToken: telegramTokenSchema,
})

const channelParams = orgParams.extend({ channelId: idSchema })

/** A Facebook page chosen in the login, connected as one channel (the server checks its token at Graph). */
export const newFacebookChannelSchema = facebookPageSchema.extend({ platformName: z.literal('facebook') })

/** One channel of a create request: a Telegram bot by its token, or a Facebook page. */
const newChannelSchema = z.discriminatedUnion(
  'platformName',
  [newTelegramChannelSchema, newFacebookChannelSchema],
  {
    error:
      'platformName must be telegram or facebook (WhatsApp numbers connect through /channels/whatsapp/connect)',
  },
)

const connectionStatusSchema = z.enum(CONNECTION_STATUSES)

export const platformConnectionSchema = z.object({
  connectionId: z.string(),
  platformName: z.enum(PLATFORM_NAMES),
  status: connectionStatusSchema,
  connectedAt: z.string(),
  lastSync: z.string(),
  accountInfo: z.record(z.string(), z.union([z.string(), z.boolean()])),
  expiresAt: z.string().nullable(),
  platformData: z.object({
    channelId: z.string(),
    channelType: channelSchema.shape.channelType,
    platformChannelId: z.string(),
    channelStatus: channelSchema.shape.status,
    statusReason: z.string().nullable(),
    webhookSubscribed: z.boolean(),
    agentId: z.string().nullable(),
    agentEnabled: z.boolean(),
  }),
})

export const platformStatusSchema = z.object({
  platformName: z.enum(PLATFORM_NAMES),
  status: connectionStatusSchema,
  supported: z.boolean(),
  connections: z.array(platformConnectionSchema),
})

/** Any text: an unknown platform is the spec's 404 "Platform not found", not a validation error. */
const platformParams = z.object({ platform: z.string().min(1).max(50) })
const connectionRef = z.string().min(1).max(200)
const webhookBody = z.object({ organizationId: idSchema, channelId: idSchema })

export const endpoints = {
  getProfile: defineEndpoint({
    method: 'POST',
    path: '/users/{uid}',
    operationId: 'getProfile',
    summary: "The caller's profile with its organizations (only for the caller's own uid)",
    tag: 'Profile',
    params: z.object({ uid: id }),
    response: profileSchema,
    public: true,
  }),
  createOrganization: defineEndpoint({
    method: 'POST',
    path: '/organizations',
    operationId: 'createOrganization',
    summary: 'Create an organization; the caller becomes its owner, on the free plan',
    tag: 'Organizations',
    body: z.object({ name: organizationNameSchema, plan: z.literal('free').optional() }),
    response: organizationSchema,
    successStatus: 201,
    public: true,
  }),
  listOrganizations: defineEndpoint({
    method: 'GET',
    path: '/organizations',
    operationId: 'listOrganizations',
    summary: "The caller's organizations with its role in each",
    tag: 'Organizations',
    response: z.array(organizationSchema),
    public: true,
  }),
  getOrganization: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}',
    operationId: 'getOrganization',
    summary: 'One organization the caller belongs to',
    tag: 'Organizations',
    params: orgParams,
    response: organizationDetailSchema,
  }),
  updateOrganization: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}',
    operationId: 'updateOrganization',
    summary: 'Rename an organization (owners only)',
    tag: 'Organizations',
    params: orgParams,
    body: z.object({ name: organizationNameSchema }),
    response: organizationDetailSchema,
  }),
  deleteOrganization: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}',
    operationId: 'deleteOrganization',
    summary: 'Delete an organization and everything in it (owners only)',
    tag: 'Organizations',
    params: orgParams,
    response: z.null(),
  }),
  addMember: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/members',
    operationId: 'addMember',
    summary:
      'Invite a user (by uid) to become a member (owners only): they join when they accept. Answers the invitation, never their email; an already pending one is answered again',
    tag: 'Organizations',
    params: orgParams,
    body: z.object({ memberId: id }),
    response: organizationInvitationSchema,
    successStatus: 201,
  }),
  removeMember: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/members/{memberId}',
    operationId: 'removeMember',
    summary: 'Remove a member (owners only; the last owner stays)',
    tag: 'Organizations',
    params: orgParams.extend({ memberId: id }),
    response: z.array(memberSchema),
  }),
  leaveOrganization: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/leave',
    operationId: 'leaveOrganization',
    summary: 'Leave an organization (any member; not its last owner)',
    tag: 'Organizations',
    params: orgParams,
    response: z.null(),
  }),
  listInvitations: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/invitations',
    operationId: 'listInvitations',
    summary: "The organization's pending invitations (owners only)",
    tag: 'Invitations',
    params: orgParams,
    response: z.array(organizationInvitationSchema),
  }),
  createInvitation: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/invitations',
    operationId: 'createInvitation',
    summary:
      'Invite a person by email (owners only; trimmed and lowercased). An already pending invitation is answered again; a member is a 409',
    tag: 'Invitations',
    params: orgParams,
    body: inviteMemberSchema,
    response: organizationInvitationSchema,
    successStatus: 201,
  }),
  revokeInvitation: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/invitations/{invitationId}',
    operationId: 'revokeInvitation',
    summary: 'Withdraw a pending invitation (owners only)',
    tag: 'Invitations',
    params: orgParams.extend({ invitationId }),
    response: z.null(),
  }),
  listMyInvitations: defineEndpoint({
    method: 'GET',
    path: '/invitations',
    operationId: 'listMyInvitations',
    summary:
      "The caller's pending invitations: to their user id, or to the email of their sign-in account (one per organization)",
    tag: 'Invitations',
    response: z.array(receivedInvitationSchema),
    public: true,
  }),
  acceptInvitation: defineEndpoint({
    method: 'POST',
    path: '/invitations/{invitationId}/accept',
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation (only its invitee): the caller becomes a member',
    tag: 'Invitations',
    params: z.object({ invitationId }),
    response: organizationSchema,
    public: true,
  }),
  declineInvitation: defineEndpoint({
    method: 'POST',
    path: '/invitations/{invitationId}/decline',
    operationId: 'declineInvitation',
    summary: 'Decline an invitation (only its invitee)',
    tag: 'Invitations',
    params: z.object({ invitationId }),
    response: z.null(),
    public: true,
  }),
  listAgents: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/agents',
    operationId: 'listAgents',
    summary: "The organization's agents, optionally by status, a page at a time",
    tag: 'Agents',
    params: orgParams,
    query: agentListQuerySchema,
    response: z.array(agentSchema),
  }),
  createAgent: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/agents',
    operationId: 'createAgent',
    summary: 'Create an agent (active, with the defaults for what is not given)',
    tag: 'Agents',
    params: orgParams,
    body: createAgentSchema,
    response: agentSchema,
    successStatus: 201,
  }),
  getAgent: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'getAgent',
    summary: 'One agent',
    tag: 'Agents',
    params: agentParams,
    response: agentSchema,
  }),
  updateAgent: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'updateAgent',
    summary: 'Update an agent; the readable id cannot change',
    tag: 'Agents',
    params: agentParams,
    body: updateAgentSchema,
    response: agentSchema,
  }),
  deleteAgent: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/agents/{agentId}',
    operationId: 'deleteAgent',
    summary: 'Archive an agent (it stays, with its runs, and answers no one)',
    tag: 'Agents',
    params: agentParams,
    response: agentSchema,
  }),
  runAgent: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/agents/{agentId}/run',
    operationId: 'runAgent',
    summary: 'Run an agent on one message and record the run (context.metadata.testMode marks a test)',
    tag: 'Agents',
    params: agentParams,
    body: runAgentSchema,
    response: agentRunResultSchema,
  }),
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
      'Rename a channel, switch its agent on or off, or switch its webhook subscription (set or removed at the platform)',
    tag: 'Channels',
    params: channelParams,
    body: z.object({
      name: z.string().trim().min(1).max(100).refine(hasNoNul, NUL_MESSAGE).optional(),
      agentEnabled: z.boolean().optional(),
      webhookSubscribed: z.boolean().optional(),
    }),
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
      agentEnabled: z.boolean().default(true),
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
  connectPlatform: defineEndpoint({
    method: 'POST',
    path: '/platforms/{platform}/connect',
    operationId: 'connectPlatform',
    summary:
      'Connect the organization (X-Organization-Id) to a platform: telegram {authData: {botToken}}, facebook {authData: {accessToken}, options: {pageIds?}}, whatsapp {authData: {code, wabaId, phoneNumberId, pin?}}',
    tag: 'Platforms',
    organizationHeader: 'required',
    params: platformParams,
    body: z.object({
      authData: z.record(z.string(), z.unknown()).optional(),
      options: z.record(z.string(), z.unknown()).optional(),
    }),
    response: z.array(platformConnectionSchema),
    successStatus: 201,
  }),
  disconnectPlatform: defineEndpoint({
    method: 'DELETE',
    path: '/platforms/{platform}/disconnect',
    operationId: 'disconnectPlatform',
    summary:
      "Disconnect the organization's connections to a platform (or only {connectionId}): each channel released at its platform and deleted",
    tag: 'Platforms',
    organizationHeader: 'required',
    params: platformParams,
    body: z.object({ connectionId: connectionRef.optional() }).optional(),
    response: z.object({ disconnected: z.array(z.string()), warnings: z.array(z.string()) }),
  }),
  platformStatus: defineEndpoint({
    method: 'GET',
    path: '/platforms/{platform}/status',
    operationId: 'platformStatus',
    summary: "The organization's connections to a platform and their status",
    tag: 'Platforms',
    organizationHeader: 'required',
    params: platformParams,
    response: platformStatusSchema,
  }),
  platformStatuses: defineEndpoint({
    method: 'GET',
    path: '/platforms/status',
    operationId: 'platformStatuses',
    summary: 'Every platform with its connection status for the organization',
    tag: 'Platforms',
    organizationHeader: 'required',
    response: z.array(platformStatusSchema),
  }),
  refreshPlatform: defineEndpoint({
    method: 'PUT',
    path: '/platforms/{platform}/refresh',
    operationId: 'refreshPlatform',
    summary:
      'Ask the platform whether each connection still works (those not checked in the last 5 minutes, or all with forceRefresh; options.connectionId for one)',
    tag: 'Platforms',
    organizationHeader: 'required',
    params: platformParams,
    body: z
      .object({
        forceRefresh: z.boolean().optional(),
        options: z.object({ connectionId: connectionRef.optional() }).optional(),
      })
      .optional(),
    response: platformStatusSchema,
  }),
  subscribeWebhook: defineEndpoint({
    method: 'POST',
    path: '/webhooks/{platform}/subscribe',
    operationId: 'subscribeWebhook',
    summary: "Turn a channel's webhook subscription on at its platform",
    tag: 'Webhooks',
    params: platformParams,
    body: webhookBody,
    response: channelSchema,
  }),
  unsubscribeWebhook: defineEndpoint({
    method: 'DELETE',
    path: '/webhooks/{platform}/unsubscribe',
    operationId: 'unsubscribeWebhook',
    summary: "Turn a channel's webhook subscription off at its platform",
    tag: 'Webhooks',
    params: platformParams,
    body: webhookBody,
    response: channelSchema,
  }),
  facebookWebhookSubscribe: defineEndpoint({
    method: 'POST',
    base: '/api',
    path: '/facebook/webhook/subscribe',
    operationId: 'facebookWebhookSubscribe',
    summary:
      "Subscribe a connected page (its page token, checked at Graph) to the app's webhooks with the given fields",
    tag: 'Facebook',
    organizationHeader: 'required',
    body: pageSubscribeSchema,
    response: channelSchema,
  }),
  facebookSendMessage: defineEndpoint({
    method: 'POST',
    base: '/api',
    path: '/facebook/send-message',
    operationId: 'facebookSendMessage',
    summary:
      'Send a Messenger text as a connected page (messaging_type RESPONSE, split at 2,000 characters); recorded in the conversation',
    tag: 'Facebook',
    organizationHeader: 'required',
    body: pageSendSchema,
    response: z.object({ messageId: z.string(), recipientId: z.string(), parts: z.number() }),
  }),
}
