import { endpoints } from '~/lib/api/endpoints'
import { webhookSwitchRoute } from '~/http/webhook-switch.server'

export const action = webhookSwitchRoute(endpoints.subscribeWebhook, true, 'Webhook subscribed')
export const loader = action
