import { agentEndpoints } from './agents'
import { analyticsEndpoints } from './analytics'
import { channelEndpoints } from './channels'
import { conversationEndpoints } from './conversations'
import { facebookEndpoints } from './facebook'
import { invitationEndpoints } from './invitations'
import { knowledgeEndpoints } from './knowledge'
import { notificationEndpoints } from './notifications'
import { organizationEndpoints } from './organizations'
import { platformEndpoints } from './platforms'
import { savedReplyEndpoints } from './saved-replies'
import { userEndpoints } from './users'
import { webhookEndpoints } from './webhooks'

/** The product API's contract, one file per resource; the OpenAPI document lists them in this order. */
export const endpoints = {
  ...userEndpoints,
  ...organizationEndpoints,
  ...invitationEndpoints,
  ...agentEndpoints,
  ...channelEndpoints,
  ...conversationEndpoints,
  ...savedReplyEndpoints,
  ...notificationEndpoints,
  ...analyticsEndpoints,
  ...knowledgeEndpoints,
  ...platformEndpoints,
  ...webhookEndpoints,
  ...facebookEndpoints,
}
