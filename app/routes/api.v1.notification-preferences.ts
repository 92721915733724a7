import { endpoints } from '~/lib/api/endpoints'
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from '~/services/notifications/preferences.server'
import { apiRoute, handle } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getNotificationPreferences, async ({ caller }) => ({
    data: await getNotificationPreferences(caller.db, caller.user.id),
  })),
  handle(endpoints.updateNotificationPreferences, async ({ caller, body }) => ({
    data: await updateNotificationPreferences(caller.db, caller.user.id, body),
  })),
)

export const loader = route
export const action = route
