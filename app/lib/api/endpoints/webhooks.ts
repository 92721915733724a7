import { z } from 'zod'
import { requiredIdSchema } from '~/lib/shared/input'
import { defineEndpoint } from '~/lib/api/contract'
import { channelSchema } from './channels'
import { platformParams } from './shared'

const webhookBody = z.object({
  organizationId: requiredIdSchema('Organization ID'),
  channelId: requiredIdSchema('Channel ID'),
})

export const webhookEndpoints = {
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
}
