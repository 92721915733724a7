import { z } from 'zod'
import { CONNECTION_STATUSES, PLATFORM_NAMES } from '~/lib/channels/channels'
import { defineEndpoint } from '~/lib/api/contract'
import { channelSchema } from './channels'
import { platformParams } from './shared'

const connectionStatusSchema = z.enum(CONNECTION_STATUSES)

const platformConnectionSchema = z.object({
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

const platformStatusSchema = z.object({
  platformName: z.enum(PLATFORM_NAMES),
  status: connectionStatusSchema,
  supported: z.boolean(),
  connections: z.array(platformConnectionSchema),
})

const connectionRef = z.string().min(1).max(200)

export const platformEndpoints = {
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
}
