import { z } from 'zod'
import { defineEndpoint } from '~/lib/api/contract'
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_MEDIA,
  notificationItemSchema,
  notificationPreferencesSchema,
} from '~/lib/notifications/notifications'
import { idSchema } from '~/lib/shared/input'
import { orgParams } from './shared'

const preferencesSchema = z.object({
  choices: z.record(z.enum(NOTIFICATION_EVENTS), z.record(z.enum(NOTIFICATION_MEDIA), z.boolean())),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  timeZone: z.string(),
})

/** Notifications (issue 35, docs/decisions/068): the caller's own, in one organization; their choices, in all. */
export const notificationEndpoints = {
  listNotifications: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/notifications',
    operationId: 'listNotifications',
    summary:
      "The caller's latest notifications in the organization (at most 30), newest first, and how many are unread",
    tag: 'Notifications',
    params: orgParams,
    query: z.object({ unread: z.enum(['true', 'false']).optional() }),
    response: z.object({ items: z.array(notificationItemSchema), unread: z.number().int() }),
  }),
  markNotificationsRead: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/notifications/read',
    operationId: 'markNotificationsRead',
    summary:
      "Mark the caller's notifications read: those named by `ids` (at most 100), or all when `ids` is left out",
    tag: 'Notifications',
    params: orgParams,
    body: z.strictObject({ ids: z.array(idSchema).max(100).optional() }),
    response: z.object({ unread: z.number().int() }),
  }),
  getNotificationPreferences: defineEndpoint({
    method: 'GET',
    path: '/notification-preferences',
    operationId: 'getNotificationPreferences',
    summary: "The caller's choices: each event by each medium, quiet hours and their time zone",
    tag: 'Notifications',
    response: preferencesSchema,
    public: true,
  }),
  updateNotificationPreferences: defineEndpoint({
    method: 'PUT',
    path: '/notification-preferences',
    operationId: 'updateNotificationPreferences',
    summary:
      "Change the caller's choices: the events and media named (the others keep theirs); `quietHours` {start, end} as HH:MM, or null for none; an unknown event is a 400",
    tag: 'Notifications',
    body: notificationPreferencesSchema,
    response: preferencesSchema,
    public: true,
  }),
}
