import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

// "Words your customers use" (issue 36, docs/decisions/073): an organization's own groups of words that mean the
// same for its business, in any language ("móvil, celular, teléfono"). The knowledge search reads a question's
// word with its group's other words, as it does with the built-in English lists. Client-safe: the form checks the
// same rules.

export const MAX_WORD_GROUPS = 200
export const MAX_GROUP_WORDS = 20
export const MAX_WORD_LENGTH = 60

export const CUSTOMER_WORDS_TEXTS = {
  title: 'Words your customers use',
  settingsSummary:
    'The words, in any language, that your customers use for what your knowledge calls otherwise.',
  description:
    'Customers often ask in other words than your knowledge uses: "cell phone" for "mobile", "postage" for "delivery". Write each group of words that mean the same for your business on a line of its own, separated by commas, in any language. The answers are then found whichever of them a customer writes.',
  label: 'Groups of words, one per line',
  placeholder: 'mobile, cell phone, handset\ndelivery, shipping, postage',
  save: 'Save words',
  saved: 'Words saved. Customers’ questions are searched with them from now on.',
  empty:
    'No groups yet: the knowledge is searched with the customer’s own words and the built-in English ones.',
  tooManyGroups: `Write at most ${MAX_WORD_GROUPS} groups`,
  tooManyWords: (line: number) => `Line ${line}: a group holds at most ${MAX_GROUP_WORDS} words`,
  tooLong: (line: number) => `Line ${line}: a word or phrase is at most ${MAX_WORD_LENGTH} characters`,
  single: (line: number) => `Line ${line}: write at least two words that mean the same, separated by commas`,
  failed: 'The words could not be saved. Please try again.',
} as const

/** A line of the box as a group: words split at commas (or semicolons), trimmed, repeats dropped. */
const groupOf = (line: string) => [
  ...new Set(
    line
      .split(/[,;]/)
      .map((word) => word.trim().replace(/\s+/g, ' '))
      .filter(Boolean),
  ),
]

/** The groups as the box shows them: a line each. */
export const wordGroupsText = (groups: string[][]) => groups.map((group) => group.join(', ')).join('\n')

type Issues = { addIssue(issue: { code: 'custom'; message: string }): void }

/** The rules of each group, its problem named by `line` (the box's line, or the group's place in a list). */
function checkGroups(groups: { line: number; words: string[] }[], ctx: Issues) {
  if (groups.length > MAX_WORD_GROUPS)
    ctx.addIssue({ code: 'custom', message: CUSTOMER_WORDS_TEXTS.tooManyGroups })
  for (const { line, words } of groups.slice(0, MAX_WORD_GROUPS)) {
    if (words.length < 2) ctx.addIssue({ code: 'custom', message: CUSTOMER_WORDS_TEXTS.single(line) })
    else if (words.length > MAX_GROUP_WORDS)
      ctx.addIssue({ code: 'custom', message: CUSTOMER_WORDS_TEXTS.tooManyWords(line) })
    else if (words.some((word) => word.length > MAX_WORD_LENGTH))
      ctx.addIssue({ code: 'custom', message: CUSTOMER_WORDS_TEXTS.tooLong(line) })
  }
}

/** The groups as stored and as the API takes them: each 2-20 words of at most 60 characters, 200 groups at most. */
const LIST_OF_GROUPS = 'Groups must be a list of lists of words'
const word = z
  .string({ error: LIST_OF_GROUPS })
  .trim()
  .min(1, 'A word cannot be empty')
  .refine(hasNoNul, NUL_MESSAGE)
export const wordGroupsSchema = z
  .array(z.array(word, { error: LIST_OF_GROUPS }), { error: LIST_OF_GROUPS })
  .superRefine((groups, ctx) =>
    checkGroups(
      groups.map((words, index) => ({ line: index + 1, words })),
      ctx,
    ),
  )

/** The settings form: one box of lines, turned into groups and checked (its first problem on the box). */
export const customerWordsFormSchema = z.object({
  words: z
    .string()
    .max(MAX_WORD_GROUPS * MAX_GROUP_WORDS * (MAX_WORD_LENGTH + 2), CUSTOMER_WORDS_TEXTS.tooManyGroups)
    .refine(hasNoNul, NUL_MESSAGE)
    .default('')
    // Each group keeps its line in the box, so that a message names the line the owner sees.
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line, index) => ({ line: index + 1, words: groupOf(line) }))
        .filter((group) => group.words.length > 0),
    )
    .superRefine(checkGroups)
    .transform((groups) => groups.map((group) => group.words)),
})
