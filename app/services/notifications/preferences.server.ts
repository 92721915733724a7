import { eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { notificationPreferences } from '~/db/schema'
import {
  choicesWithDefaults,
  minutesOfDay,
  timeOfDayOf,
  type NotificationPreferences,
  type NotificationPreferencesInput,
} from '~/lib/notifications/notifications'

type StoredPreferences = Pick<
  typeof notificationPreferences.$inferSelect,
  'choices' | 'quietStart' | 'quietEnd' | 'timeZone'
>

/** A member's stored row (or none) as the settings and the API show it: the defaults where nothing was chosen. */
export function preferencesOf(row: StoredPreferences | undefined | null): NotificationPreferences {
  return {
    choices: choicesWithDefaults(row?.choices ?? {}),
    quietHours:
      row?.quietStart != null && row.quietEnd != null
        ? { start: timeOfDayOf(row.quietStart), end: timeOfDayOf(row.quietEnd) }
        : null,
    timeZone: row?.timeZone ?? 'UTC',
  }
}

/** A member's notification preferences (the same in every organization of theirs). */
export async function getNotificationPreferences(
  db: Database,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      choices: notificationPreferences.choices,
      quietStart: notificationPreferences.quietStart,
      quietEnd: notificationPreferences.quietEnd,
      timeZone: notificationPreferences.timeZone,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
  return preferencesOf(row)
}

/**
 * Changes what the member chose: the events and media named (the others keep theirs), quiet hours when given
 * (null: none), the time zone when given. One statement: two tabs saving at once both keep their choices.
 */
export async function updateNotificationPreferences(
  db: Database,
  userId: string,
  input: NotificationPreferencesInput,
): Promise<NotificationPreferences> {
  const choices = input.choices ?? {}
  const quiet =
    input.quietHours === undefined
      ? undefined
      : input.quietHours === null
        ? { start: null, end: null }
        : { start: minutesOfDay(input.quietHours.start), end: minutesOfDay(input.quietHours.end) }
  const [row] = await db
    .insert(notificationPreferences)
    .values({
      userId,
      choices,
      quietStart: quiet?.start ?? null,
      quietEnd: quiet?.end ?? null,
      timeZone: input.timeZone ?? 'UTC',
    })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: {
        // Merged an event at a time: a medium left out of this change keeps its earlier choice.
        choices: sql`${notificationPreferences.choices} || coalesce((select jsonb_object_agg(key, coalesce(${notificationPreferences.choices} -> key, '{}'::jsonb) || value)
          from jsonb_each(${JSON.stringify(choices)}::jsonb)), '{}'::jsonb)`,
        ...(quiet ? { quietStart: quiet.start, quietEnd: quiet.end } : {}),
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        updatedAt: sql`now()`,
      },
    })
    .returning({
      choices: notificationPreferences.choices,
      quietStart: notificationPreferences.quietStart,
      quietEnd: notificationPreferences.quietEnd,
      timeZone: notificationPreferences.timeZone,
    })
  return preferencesOf(row)
}
