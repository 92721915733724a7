import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_MEDIA,
  notificationPreferencesSchema,
  type NotificationChoices,
} from './notifications'

/** A choice's field in the settings' form: `needs_attention.email`, checked or absent. */
export const choiceField = (event: string, medium: string) => `${event}.${medium}`

/**
 * The settings' form as the API's body: every event and medium (an unchecked box is absent from the form, which
 * means off), quiet hours when switched on, the time zone. Validated with the API's own schema.
 */
export function parsePreferencesForm(form: FormData) {
  const choices = Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => [
      event,
      Object.fromEntries(
        NOTIFICATION_MEDIA.map((medium) => [medium, form.get(choiceField(event, medium)) === 'on']),
      ),
    ]),
  ) as NotificationChoices
  const quiet = form.get('quiet') === 'on'
  return notificationPreferencesSchema.safeParse({
    choices,
    quietHours: quiet ? { start: form.get('quietStart'), end: form.get('quietEnd') } : null,
    timeZone: form.get('timeZone') ?? undefined,
  })
}
