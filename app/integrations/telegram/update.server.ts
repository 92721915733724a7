import { z } from 'zod'

// Telegram's Update (core.telegram.org/bots/api#update), only as far as we read it; every other field and update
// kind passes through untouched.
export const telegramUserSchema = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
})
// A file the message carries (Bot API's Voice, Audio, Document, PhotoSize): what fetching it needs. A malformed
// one is read as absent: the message is still stored, as a label.
const telegramFile = z.looseObject({
  file_id: z.string().min(1).max(1000),
  file_size: z.number().int().nonnegative().optional(),
  mime_type: z.string().max(200).optional(),
  file_name: z.string().max(1000).optional(),
})
const telegramMessage = z.looseObject({
  message_id: z.number().int(),
  date: z.number().int(),
  chat: z.looseObject({ id: z.number().int(), type: z.string() }),
  from: telegramUserSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  voice: telegramFile.optional().catch(undefined),
  audio: telegramFile.optional().catch(undefined),
  document: telegramFile.optional().catch(undefined),
  /** The photo's sizes, smallest first. */
  photo: z.array(telegramFile).optional().catch(undefined),
})
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int(),
  message: telegramMessage.optional(),
})
export type TelegramUpdateBody = z.infer<typeof telegramUpdateSchema>
export type TelegramUser = z.infer<typeof telegramUserSchema>

/** Only the envelope must be Telegram's (an object with its update_id): what it carries is read leniently. */
export const telegramUpdateEnvelope = z.looseObject({ update_id: z.number().int() })
