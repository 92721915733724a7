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
const telegramMessage = z.looseObject({
  message_id: z.number().int(),
  date: z.number().int(),
  chat: z.looseObject({ id: z.number().int(), type: z.string() }),
  from: telegramUserSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
})
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int(),
  message: telegramMessage.optional(),
})
export type TelegramUpdateBody = z.infer<typeof telegramUpdateSchema>
export type TelegramUser = z.infer<typeof telegramUserSchema>

/** Only the envelope must be Telegram's (an object with its update_id): what it carries is read leniently. */
export const telegramUpdateEnvelope = z.looseObject({ update_id: z.number().int() })
