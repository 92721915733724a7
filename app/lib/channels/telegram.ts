import { z } from 'zod'

/** A bot id, a colon, then the 35-character auth token (spec section 5, "Telegram bot token"). */
export const TELEGRAM_TOKEN_PATTERN = /^\d+:[A-Za-z0-9_-]{35}$/

export const BOT_TOKEN_REQUIRED_MESSAGE = 'Bot token is required'
export const BOT_TOKEN_FORMAT_MESSAGE = 'Invalid bot token format'

/** The Connect Telegram Bot form's token field; client-safe. An empty token gets only the "required" message. */
export const telegramTokenSchema = z
  .string({ error: BOT_TOKEN_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: BOT_TOKEN_REQUIRED_MESSAGE, abort: true })
  .regex(TELEGRAM_TOKEN_PATTERN, BOT_TOKEN_FORMAT_MESSAGE)
