import { z } from 'zod'
import { pageSendSchema, pageSubscribeSchema } from '~/lib/channels/connect-schemas'
import { defineEndpoint } from '~/lib/api/contract'
import { channelSchema } from './channels'

/** The spec's Facebook calls, under /api rather than /api/v1. */
export const facebookEndpoints = {
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
