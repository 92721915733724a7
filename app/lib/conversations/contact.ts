import { z } from 'zod'
import { PLATFORM_NAMES } from '~/lib/channels/channels'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'
import { CONVERSATION_STATUSES } from './conversations'

/** The customer beside the chat (issue 33, docs/decisions/062): the rules and texts the screens and the API share. */

export const CONTACT_NOTES_MAX_LENGTH = 2000
/** The customer's other conversations the panel lists, at most (the newest). */
export const MAX_OTHER_CONVERSATIONS = 20

export const CONTACT_TEXTS = {
  notesTooLong: `Notes can be at most ${CONTACT_NOTES_MAX_LENGTH.toLocaleString('en-US')} characters`,
  notesInvalid: 'Notes must be text',
  notesSaved: 'Notes saved',
} as const

export const contactNotesSchema = z.object({
  notes: z
    .string({ error: CONTACT_TEXTS.notesInvalid })
    .trim()
    .max(CONTACT_NOTES_MAX_LENGTH, CONTACT_TEXTS.notesTooLong)
    .refine(hasNoNul, NUL_MESSAGE),
})

/** The screen's notes field: emptied (or left out of the form), it clears them. */
export const contactNotesFormSchema = z.object({
  notes: z
    .string()
    .optional()
    .transform((value) => value ?? '')
    .pipe(contactNotesSchema.shape.notes),
})

const isoTime = z.string().meta({ format: 'date-time' })

export const contactSchema = z.object({
  conversationId: z.string(),
  platformName: z.enum(PLATFORM_NAMES),
  name: z.string().nullable(),
  handle: z
    .string()
    .nullable()
    .meta({ description: "The platform's handle (Telegram's @username), once given" }),
  phone: z
    .string()
    .nullable()
    .meta({ description: 'The phone number, where the platform gives it (WhatsApp)' }),
  language: z
    .string()
    .nullable()
    .meta({ description: "The customer's language as a BCP 47 tag, once known" }),
  firstSeenAt: isoTime,
  notes: z.string(),
  labels: z.array(z.string()),
  conversationCount: z.number().int().meta({
    description:
      "This conversation and the customer's others: the same person on the organization's other channels of the platform",
  }),
  otherConversations: z.array(
    z.object({
      id: z.string(),
      channel: z.object({ id: z.string(), name: z.string() }),
      status: z.enum(CONVERSATION_STATUSES),
      lastMessageAt: isoTime,
    }),
  ),
})
export type Contact = z.output<typeof contactSchema>

/** "Portuguese (Brazil)" for "pt-br"; the tag itself when the runtime does not know it. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag
  } catch {
    return tag
  }
}
