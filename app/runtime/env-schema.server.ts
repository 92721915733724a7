import { z } from 'zod'
import { modelPricesSchema } from '~/lib/analytics/analytics'
import {
  DEFAULT_CONVERSATION_WINDOW,
  DEFAULT_REPLY_QUEUE_HIGH_WATER,
  MAX_REPLY_WORKER_CONCURRENCY,
} from '~/lib/conversations/reply-pipeline'
import { DEFAULT_CHANNEL_HEALTH_INTERVAL_HOURS } from '~/lib/channels/health'
import { DEFAULT_EMBEDDING_MIN_SIMILARITY } from '~/lib/knowledge/knowledge'
import { LOG_LEVELS } from '~/utils/logger.server'

// The environment's variables as the server reads them: each checked, with its default (loadConfig builds on it).

/** Divisors of 24: the check runs at the same hours every day. */
const HEALTH_INTERVALS = [1, 2, 3, 4, 6, 8, 12, 24]
const HEALTH_INTERVAL_MESSAGE = `CHANNEL_HEALTH_INTERVAL_HOURS must be one of ${HEALTH_INTERVALS.join(', ')}`

const CONCURRENCY_RANGE = `REPLY_WORKER_CONCURRENCY must be between 1 and ${MAX_REPLY_WORKER_CONCURRENCY}`

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

/** A bare origin (scheme, host, port): never a wildcard, a path or a pattern. */
function isOrigin(value: string): boolean {
  if (value.includes('*')) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}

/** An SMTP server's URL: smtp: or smtps:, a host, an optional port; nothing after it but query options. */
function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (
      (url.protocol === 'smtp:' || url.protocol === 'smtps:') &&
      url.hostname !== '' &&
      url.pathname.length <= 1
    )
  } catch {
    return false
  }
}

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  EMBEDDED_DEFAULTS: optionalString,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: optionalString,
  /** Behind a proxy ("loopback", a hop count, "true"), req.ip is the client's address, for rate limits. */
  TRUST_PROXY: optionalString,
  MIGRATIONS_DIR: optionalString,
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: optionalString,
  DATABASE_URL: optionalString,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  ),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)')
      .optional(),
  ),
  FIREBASE_PROJECT_ID: optionalString,
  FIREBASE_API_KEY: optionalString,
  FIREBASE_AUTH_DOMAIN: optionalString,
  GOOGLE_APPLICATION_CREDENTIALS: optionalString,
  FIREBASE_AUTH_EMULATOR_HOST: optionalString,
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LLM_BASE_URL: optionalString.pipe(
    z.url('LLM_BASE_URL must be a URL such as https://api.openai.com/v1').optional(),
  ),
  LLM_API_KEY: optionalString,
  LLM_MODEL_SIMPLE: optionalString,
  LLM_MODEL_MEDIUM: optionalString,
  LLM_MODEL_PRO: optionalString,
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  LLM_PRICES: optionalString.transform((value, ctx) => {
    if (value === undefined) return undefined
    try {
      return modelPricesSchema.parse(JSON.parse(value))
    } catch {
      ctx.addIssue({
        code: 'custom',
        message:
          'LLM_PRICES must be JSON such as {"gpt-4o-mini":{"prompt":0.15,"completion":0.6}} (USD per million tokens)',
      })
      return z.NEVER
    }
  }),
  /** The OpenAI-compatible endpoint's embedding model: knowledge passages are embedded too (ADR 043). */
  LLM_EMBEDDING_MODEL: optionalString,
  LLM_TRANSCRIPTION_MODEL: optionalString,
  LLM_VISION_MODEL: optionalString,
  LLM_EMBEDDING_MIN_SIMILARITY: z.coerce
    .number('LLM_EMBEDDING_MIN_SIMILARITY must be a number between 0 and 1')
    .min(0, 'LLM_EMBEDDING_MIN_SIMILARITY must be a number between 0 and 1')
    .max(1, 'LLM_EMBEDDING_MIN_SIMILARITY must be a number between 0 and 1')
    .default(DEFAULT_EMBEDDING_MIN_SIMILARITY),
  ANTHROPIC_API_KEY: optionalString,
  /**
   * Tests only: lets the knowledge base fetch web pages from private addresses (their local fake site). Refused in
   * production; off by default (docs/decisions/042).
   */
  KNOWLEDGE_FETCH_ALLOW_PRIVATE: optionalString.pipe(
    z.enum(['true', 'false', '1', '0'], 'KNOWLEDGE_FETCH_ALLOW_PRIVATE must be true or false').optional(),
  ),
  TELEGRAM_API_ROOT: optionalString.pipe(z.url('TELEGRAM_API_ROOT must be a URL').optional()),
  TELEGRAM_UPDATES: optionalString.pipe(
    z.enum(['auto', 'webhook', 'polling'], 'TELEGRAM_UPDATES must be auto, webhook or polling').optional(),
  ),
  WORKER_IN_PROCESS: optionalString.pipe(
    z.enum(['true', 'false', '1', '0'], 'WORKER_IN_PROCESS must be true or false').optional(),
  ),
  CONVERSATION_WINDOW: z.coerce
    .number()
    .int()
    .min(1, 'CONVERSATION_WINDOW must be between 1 and 200')
    .max(200, 'CONVERSATION_WINDOW must be between 1 and 200')
    .default(DEFAULT_CONVERSATION_WINDOW),
  REPLY_WORKER_CONCURRENCY: z.coerce
    .number(CONCURRENCY_RANGE)
    .int(CONCURRENCY_RANGE)
    .min(1, CONCURRENCY_RANGE)
    .max(MAX_REPLY_WORKER_CONCURRENCY, CONCURRENCY_RANGE)
    .optional(),
  CHANNEL_HEALTH_INTERVAL_HOURS: z.coerce
    .number()
    .int(HEALTH_INTERVAL_MESSAGE)
    .refine((hours) => HEALTH_INTERVALS.includes(hours), HEALTH_INTERVAL_MESSAGE)
    .default(DEFAULT_CHANNEL_HEALTH_INTERVAL_HOURS),
  REPLY_QUEUE_HIGH_WATER: z.coerce
    .number()
    .int('REPLY_QUEUE_HIGH_WATER must be a whole number of jobs')
    .min(1, 'REPLY_QUEUE_HIGH_WATER must be at least 1')
    .default(DEFAULT_REPLY_QUEUE_HIGH_WATER),
  WORKER_METRICS_PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'WORKER_METRICS_PORT must be a port (1-65535)')
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, 'WORKER_METRICS_PORT must be a port (1-65535)')
          .max(65535, 'WORKER_METRICS_PORT must be a port (1-65535)'),
      )
      .optional(),
  ),
  META_APP_ID: optionalString,
  META_APP_SECRET: optionalString,
  META_VERIFY_TOKEN: optionalString,
  META_GRAPH_ROOT: optionalString.pipe(z.url('META_GRAPH_ROOT must be a URL').optional()),
  META_GRAPH_VERSION: optionalString.pipe(
    z
      .string()
      .regex(/^v\d+\.\d+$/, 'META_GRAPH_VERSION must look like v23.0')
      .optional(),
  ),
  FACEBOOK_SDK_URL: optionalString.pipe(z.url('FACEBOOK_SDK_URL must be a URL').optional()),
  WHATSAPP_CONFIG_ID: optionalString,
  WHATSAPP_SIGNUP_ORIGINS: optionalString.pipe(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.string().refine(isOrigin, {
            error:
              'WHATSAPP_SIGNUP_ORIGINS must list origins such as https://app.example.com, comma-separated',
          }),
        ),
      )
      .optional(),
  ),
  /** Email notifications (issue 35): smtp:// or smtps://, user and password in the URL; unset: no email. */
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .refine(isSmtpUrl, {
        error: 'SMTP_URL must look like smtp://user:password@smtp.example.com:587 (or smtps:// for port 465)',
      })
      .optional(),
  ),
  MAIL_FROM: optionalString.pipe(
    z
      .string()
      .regex(/^(.+<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
        error: 'MAIL_FROM must be an address such as ReplyPilot <alerts@example.com>',
      })
      .optional(),
  ),
  /** Web Push's server keys (base64url P-256, both or neither); unset: made once in the data folder. */
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{86,88}$/,
        'VAPID_PUBLIC_KEY must be a base64url P-256 public key (87 characters)',
      )
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{42,44}$/,
        'VAPID_PRIVATE_KEY must be a base64url P-256 private key (43 characters)',
      )
      .optional(),
  ),
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  ),
})
