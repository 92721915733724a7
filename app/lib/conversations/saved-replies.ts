import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

/** Saved replies (issue 33): the rules and texts the screens and the service share. */

export const SAVED_REPLY_MAX_LENGTH = 4096
export const SAVED_REPLY_SHORTCUT_MAX = 32
/** An organization's saved replies, at most (the composer lists them all). */
export const MAX_SAVED_REPLIES = 200
/** What stands for the customer's first name in a saved reply. */
export const FIRST_NAME_PLACEHOLDER = '{{first_name}}'

export const SAVED_REPLY_TEXTS = {
  shortcutInvalid: `A shortcut is 1 to ${SAVED_REPLY_SHORTCUT_MAX} lowercase letters, digits or dashes`,
  textRequired: 'Write the reply first',
  textTooLong: `A saved reply can be at most ${SAVED_REPLY_MAX_LENGTH.toLocaleString('en-US')} characters`,
  shortcutTaken: (shortcut: string) => `The shortcut /${shortcut} is already used`,
  tooMany: `An organization can keep at most ${MAX_SAVED_REPLIES} saved replies`,
  notFound: 'Saved reply not found',
  created: 'Saved reply added',
  updated: 'Saved reply saved',
  deleted: 'Saved reply deleted',
} as const

export const savedReplySchema = z.object({
  shortcut: z
    .string({ error: SAVED_REPLY_TEXTS.shortcutInvalid })
    .trim()
    .transform((value) => value.replace(/^\//, '').toLowerCase())
    .pipe(
      z
        .string()
        .regex(
          new RegExp(`^[\\p{Ll}\\p{N}-]{1,${SAVED_REPLY_SHORTCUT_MAX}}$`, 'u'),
          SAVED_REPLY_TEXTS.shortcutInvalid,
        ),
    ),
  text: z
    .string({ error: SAVED_REPLY_TEXTS.textRequired })
    .trim()
    .min(1, SAVED_REPLY_TEXTS.textRequired)
    .max(SAVED_REPLY_MAX_LENGTH, SAVED_REPLY_TEXTS.textTooLong)
    .refine(hasNoNul, NUL_MESSAGE),
})
export type SavedReplyInput = z.output<typeof savedReplySchema>
export const savedReplyItemSchema = z.object({ id: z.string(), shortcut: z.string(), text: z.string() })
export type SavedReplyItem = z.output<typeof savedReplyItemSchema>

/** The customer's first name from the name the platform gave (its first word); null when none is known. */
export function firstNameOf(customerName: string | null | undefined): string | null {
  const first = customerName?.trim().split(/\s+/)[0]?.replace(/^@/, '')
  return first ? first : null
}

/**
 * A saved reply as it goes into the composer: the placeholder becomes the customer's first name; with none
 * known, it goes with the space or comma before it ("Hi {{first_name}}," reads "Hi,").
 */
export function fillSavedReply(text: string, customerName: string | null | undefined): string {
  const first = firstNameOf(customerName)
  if (first) return text.replaceAll(FIRST_NAME_PLACEHOLDER, first)
  return text.replaceAll(new RegExp(`[ \\t]*${FIRST_NAME_PLACEHOLDER.replace(/[{}]/g, '\\$&')}`, 'g'), '')
}

/** The saved replies a `/` search finds: by shortcut first (its start, then anywhere), then by words of the text. */
export function searchSavedReplies(replies: SavedReplyItem[], query: string): SavedReplyItem[] {
  const q = query.toLowerCase()
  const rank = (reply: SavedReplyItem) =>
    reply.shortcut.startsWith(q)
      ? 0
      : reply.shortcut.includes(q)
        ? 1
        : reply.text.toLowerCase().includes(q)
          ? 2
          : 3
  return replies
    .map((reply) => ({ reply, rank: rank(reply) }))
    .filter(({ rank }) => rank < 3)
    .sort((a, b) => a.rank - b.rank || a.reply.shortcut.localeCompare(b.reply.shortcut))
    .map(({ reply }) => reply)
}
