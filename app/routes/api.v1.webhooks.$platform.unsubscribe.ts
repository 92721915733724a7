import { endpoints } from '~/lib/api/endpoints'
import { webhookSwitchRoute } from '~/http/webhook-switch.server'

export const action = webhookSwitchRoute(endpoints.unsubscribeWebhook, false, 'Webhook unsubscribed')
export const loader = action
