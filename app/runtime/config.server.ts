import { createECDH, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { DEFAULT_MODEL_PRICES } from '~/lib/analytics/analytics'
import type { TelegramUpdates } from '~/lib/channels/channels'
import { META_MESSAGE_ORIGINS } from '~/lib/channels/facebook'
import { DEFAULT_REPLY_WORKER_CONCURRENCY } from '~/lib/conversations/reply-pipeline'
import { isPublicHttpsUrl } from '~/utils/public-url.server'
import { dataDirProblem } from '~/runtime/data-dir.server'
import { envSchema } from '~/runtime/env-schema.server'

const DEFAULT_EMULATOR_HOST = '127.0.0.1:9099'
const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|::1|localhost)$/
const DEFAULT_PROJECT_ID = 'demo-replypilot'

/** The checked configuration, as loadConfig makes it. */
export type Config = ReturnType<typeof loadConfig>

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`ReplyPilot cannot start:\n  - ${problems.join('\n  - ')}`)
    this.name = 'ConfigError'
  }
}

type GeneratedSecrets = { sessionSecret: string; encryptionKey: string }

/** Secrets for the embedded default: made once, kept in the data folder so sessions survive restarts. */
function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json')
  try {
    const parsed = z
      .object({ sessionSecret: z.string().min(32), encryptionKey: z.string().regex(/^[0-9a-f]{64}$/) })
      .parse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed
  } catch {
    const secrets = {
      sessionSecret: randomBytes(32).toString('hex'),
      encryptionKey: randomBytes(32).toString('hex'),
    }
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
    return secrets
  }
}

/** Express's `trust proxy`: off unless set; "true", a hop count, or a list such as "loopback". */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false
  if (value === 'true') return true
  return /^\d+$/.test(value) ? Number(value) : value
}

/**
 * How Telegram channels get their messages: a webhook under PUBLIC_URL when Telegram can reach it (public https),
 * otherwise long polling by the workers. `webhook` or `polling` forces one (the e2e stack forces webhooks on
 * localhost, where the fake Telegram server can call it).
 */
export function resolveTelegramUpdates(
  setting: 'auto' | TelegramUpdates,
  publicUrl: string,
): TelegramUpdates {
  if (setting !== 'auto') return setting
  return isPublicHttpsUrl(publicUrl) ? 'webhook' : 'polling'
}

/** Reads and checks the configuration. Pure but for the secrets file of the embedded default. */
export function loadConfig(source: Record<string, string | undefined>) {
  const parsed = envSchema.safeParse(source)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`))
  }
  const env = parsed.data
  const embedded = env.EMBEDDED_DEFAULTS === 'true' || env.EMBEDDED_DEFAULTS === '1'
  const production = env.NODE_ENV === 'production'
  const strict = production && !embedded

  const problems = configProblems(env, { strict, production })
  if (problems.length > 0) throw new ConfigError(problems)

  const dataDir = writableDataDir(env)
  const secrets =
    env.SESSION_SECRET && env.ENCRYPTION_KEY
      ? { sessionSecret: env.SESSION_SECRET, encryptionKey: env.ENCRYPTION_KEY }
      : loadOrCreateSecrets(dataDir)
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  const emulatorHost = strict ? undefined : (env.FIREBASE_AUTH_EMULATOR_HOST ?? DEFAULT_EMULATOR_HOST)

  return {
    production,
    /** Secure cookies only where the site is really served over https. */
    secureCookies: publicUrl.startsWith('https://'),
    port: env.PORT,
    /**
     * Where the web process listens: this machine only on the embedded default, whose Auth emulator accepts
     * unsigned tokens for any user; every address otherwise. HOST decides when set.
     */
    host: env.HOST ?? (emulatorHost ? '127.0.0.1' : undefined),
    /** HOST opens the embedded default's sign-in, which anyone can forge, beyond this machine: said at start. */
    emulatorExposed: Boolean(emulatorHost && env.HOST && !LOOPBACK_HOST.test(env.HOST)),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    migrationsDir: path.resolve(env.MIGRATIONS_DIR ?? 'app/db/migrations'),
    sessionSecret: env.SESSION_SECRET ?? secrets.sessionSecret,
    encryptionKey: env.ENCRYPTION_KEY ?? secrets.encryptionKey,
    firebase: firebaseConfig(env, emulatorHost),
    logLevel: env.LOG_LEVEL,
    telegramApiRoot: (env.TELEGRAM_API_ROOT ?? 'https://api.telegram.org').replace(/\/+$/, ''),
    /** How Telegram channels receive messages: a webhook, or long polling by the workers (no public URL). */
    telegramUpdates: resolveTelegramUpdates(env.TELEGRAM_UPDATES ?? 'auto', publicUrl),
    /** Whether the web process also runs the reply worker (the embedded default); `npm run worker` always does. */
    workerInProcess: env.WORKER_IN_PROCESS !== 'false' && env.WORKER_IN_PROCESS !== '0',
    /** How many recent messages of a conversation a reply's prompt holds. */
    conversationWindow: env.CONVERSATION_WINDOW,
    /** Reply jobs a worker process (or the web process, when it is the worker) runs at once; by database when unset. */
    replyWorkerConcurrency: replyWorkerConcurrency(env),
    /** Hours between two scheduled channel health checks (docs/decisions/046). */
    channelHealthIntervalHours: env.CHANNEL_HEALTH_INTERVAL_HOURS,
    /** Reply jobs waiting or running above which receivers acknowledge under back-pressure (ADR 019). */
    replyQueueHighWater: env.REPLY_QUEUE_HIGH_WATER,
    /** `npm run worker`'s own /metrics listener; unset: none. */
    workerMetricsPort: env.WORKER_METRICS_PORT,
    meta: metaConfig(env),
    /** Email notifications' server and sender (ADR 068); undefined: no email is sent. */
    email: emailConfig(env, publicUrl),
    /** Web Push's VAPID keys and contact (ADR 068); undefined: no push (see pushConfig). */
    push: pushConfig(env, dataDir, publicUrl),
    /** Bearer token for /metrics; unset, /metrics is open on the embedded default only. */
    metricsToken: env.METRICS_TOKEN,
    /** Whether the embedded defaults are in use (not a strict production configuration). */
    embedded: !strict,
    llm: llmConfig(env),
    knowledge: {
      /**
       * Web pages and Messenger's attachments from private addresses may be fetched (tests' fakes only; refused in
       * production).
       */
      allowPrivateFetch: privateFetchAllowed(env),
    },
  }
}

type Env = z.output<typeof envSchema>

/** Firebase Authentication's project, web key and domain, and the Auth emulator on the embedded default. */
function firebaseConfig(env: Env, emulatorHost: string | undefined) {
  const projectId = env.FIREBASE_PROJECT_ID ?? DEFAULT_PROJECT_ID
  return {
    projectId,
    // The emulator accepts any API key; Firebase web API keys are public identifiers, not secrets.
    apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
    authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
    emulatorHost,
  }
}

const replyWorkerConcurrency = (env: Env) =>
  env.REPLY_WORKER_CONCURRENCY ??
  DEFAULT_REPLY_WORKER_CONCURRENCY[
    env.DATABASE_URL && !env.DATABASE_URL.startsWith('memory://') ? 'postgres' : 'pglite'
  ]

/**
 * The server's Web Push identity. Every process must use the same keys (a browser subscribes with the public key
 * the web process shows; the worker signs with the private one): set both variables when processes do not share
 * the data folder.
 */
function pushConfig(env: Env, dataDir: string, publicUrl: string) {
  const subject = publicUrl.startsWith('https://')
    ? publicUrl
    : `mailto:notifications@${new URL(publicUrl).hostname}`
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject }
  }
  // A production setup that keeps nothing in the data folder has no push until it sets the keys.
  return usesDataDir(env) ? { ...loadOrCreateVapidKeys(dataDir), subject } : undefined
}

function loadOrCreateVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, 'vapid.json')
  try {
    return z
      .object({ publicKey: z.string().min(80), privateKey: z.string().min(40) })
      .parse(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const keys = {
      publicKey: ecdh.getPublicKey().toString('base64url'),
      // 32 bytes: a key with leading zero bytes comes back shorter.
      privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
        .subarray(-32)
        .toString('base64url'),
    }
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 })
    return keys
  }
}

/** SMTP_URL and its sender: MAIL_FROM, or notifications@ the app's own host. */
function emailConfig(env: Env, publicUrl: string) {
  if (!env.SMTP_URL) return undefined
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM ?? `ReplyPilot <notifications@${new URL(publicUrl).hostname}>`,
  }
}

/**
 * The data folder. Generated secrets and the embedded database live there: an unwritable folder (a root-owned
 * Docker bind mount) is said in words at start, not as a stack trace from the first write.
 */
const usesDataDir = (env: Env) => !(env.SESSION_SECRET && env.ENCRYPTION_KEY) || !env.DATABASE_URL

function writableDataDir(env: Env): string {
  const dataDir = path.resolve(env.DATA_DIR ?? './data')
  const problem = usesDataDir(env) ? dataDirProblem(dataDir) : undefined
  if (problem) throw new ConfigError([problem])
  return dataDir
}

const privateFetchAllowed = (env: Env) => ['true', '1'].includes(env.KNOWLEDGE_FETCH_ALLOW_PRIVATE ?? '')

/** What a configuration may not be: production without its secrets, test-only switches, settings missing a partner. */
function configProblems(
  env: Env,
  { strict, production }: { strict: boolean; production: boolean },
): string[] {
  const problems: string[] = []
  if (strict) {
    if (!env.SESSION_SECRET)
      problems.push('SESSION_SECRET is required in production (at least 32 characters).')
    if (!env.ENCRYPTION_KEY)
      problems.push('ENCRYPTION_KEY is required in production (64 hexadecimal characters).')
    if (!env.FIREBASE_PROJECT_ID) problems.push('FIREBASE_PROJECT_ID is required in production.')
    if (!env.FIREBASE_API_KEY) problems.push('FIREBASE_API_KEY is required in production.')
    if (env.FIREBASE_AUTH_EMULATOR_HOST) {
      problems.push(
        'FIREBASE_AUTH_EMULATOR_HOST is set: the Auth emulator accepts unsigned tokens and must never be used in production. Unset it, or set EMBEDDED_DEFAULTS=true for a local trial.',
      )
    }
    if (!env.PUBLIC_URL?.startsWith('https://')) {
      problems.push(
        `PUBLIC_URL must be the https address the site is served at in production (${env.PUBLIC_URL ? `not ${env.PUBLIC_URL}` : 'it is not set'}): the session cookie is Secure only over https. Set EMBEDDED_DEFAULTS=true for a local trial over http.`,
      )
    }
    const plain = (env.WHATSAPP_SIGNUP_ORIGINS ?? []).filter((origin) => !origin.startsWith('https://'))
    if (plain.length > 0) {
      problems.push(`WHATSAPP_SIGNUP_ORIGINS must be https origins in production (not ${plain.join(', ')}).`)
    }
  }
  if (privateFetchAllowed(env) && production) {
    problems.push(
      'KNOWLEDGE_FETCH_ALLOW_PRIVATE is for tests only: it lets web pages be fetched from private addresses and is refused in production.',
    )
  }
  if (env.LLM_EMBEDDING_MODEL && !env.LLM_BASE_URL) {
    problems.push(
      'LLM_EMBEDDING_MODEL is set without LLM_BASE_URL: embeddings come from the OpenAI-compatible endpoint, set it too.',
    )
  }
  if (env.LLM_TRANSCRIPTION_MODEL && !env.LLM_BASE_URL) {
    problems.push(
      'LLM_TRANSCRIPTION_MODEL is set without LLM_BASE_URL: voice notes are transcribed by the OpenAI-compatible endpoint, set it too.',
    )
  }
  if (env.LLM_VISION_MODEL && !env.LLM_BASE_URL) {
    problems.push(
      'LLM_VISION_MODEL is set without LLM_BASE_URL: photos are read by the OpenAI-compatible endpoint, set it too.',
    )
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    problems.push(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither to have them made.',
    )
  }
  return problems
}

/**
 * Meta (Facebook Messenger, WhatsApp). `appId`/`appSecret` empty when unset: the Graph client still sends with
 * page and business tokens, but connecting, token checks and webhook signatures need them (see `configured`).
 */
function metaConfig(env: Env) {
  return {
    configured: Boolean(env.META_APP_ID && env.META_APP_SECRET),
    appId: env.META_APP_ID ?? '',
    appSecret: env.META_APP_SECRET ?? '',
    /** hub.verify_token of the webhook handshake; unset, the handshake is refused. */
    verifyToken: env.META_VERIFY_TOKEN,
    graphRoot: (env.META_GRAPH_ROOT ?? 'https://graph.facebook.com').replace(/\/+$/, ''),
    graphVersion: env.META_GRAPH_VERSION ?? 'v23.0',
    sdkUrl: env.FACEBOOK_SDK_URL ?? 'https://connect.facebook.net/en_US/sdk.js',
    whatsappConfigId: env.WHATSAPP_CONFIG_ID,
    /**
     * Origins whose Embedded Signup message (WA_EMBEDDED_SIGNUP) the browser believes: Meta's own, plus
     * WHATSAPP_SIGNUP_ORIGINS (tests serve a stand-in SDK from the app's origin).
     */
    signupMessageOrigins: [...new Set([...META_MESSAGE_ORIGINS, ...(env.WHATSAPP_SIGNUP_ORIGINS ?? [])])],
  }
}

/** The models: an OpenAI-compatible endpoint or Anthropic, the tiers' model names, prices and embeddings. */
function llmConfig(env: Env) {
  return {
    openaiCompatible: env.LLM_BASE_URL ? { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY } : undefined,
    anthropic: env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : undefined,
    models: { simple: env.LLM_MODEL_SIMPLE, medium: env.LLM_MODEL_MEDIUM, pro: env.LLM_MODEL_PRO },
    timeoutMs: env.LLM_TIMEOUT_MS,
    /** The dashboard's cost estimate: USD per million tokens by model (LLM_PRICES adds to the defaults). */
    prices: { ...DEFAULT_MODEL_PRICES, ...env.LLM_PRICES },
    /** Knowledge passages and questions are embedded too when set (docs/decisions/043). */
    embedding:
      env.LLM_BASE_URL && env.LLM_EMBEDDING_MODEL
        ? {
            baseUrl: env.LLM_BASE_URL,
            apiKey: env.LLM_API_KEY,
            model: env.LLM_EMBEDDING_MODEL,
            timeoutMs: env.LLM_TIMEOUT_MS,
            minSimilarity: env.LLM_EMBEDDING_MIN_SIMILARITY,
          }
        : undefined,
    /** Voice notes are transcribed when set (docs/decisions/074); else the agent says it reads only text. */
    transcription:
      env.LLM_BASE_URL && env.LLM_TRANSCRIPTION_MODEL
        ? {
            baseUrl: env.LLM_BASE_URL,
            apiKey: env.LLM_API_KEY,
            model: env.LLM_TRANSCRIPTION_MODEL,
            timeoutMs: env.LLM_TIMEOUT_MS,
          }
        : undefined,
    /** Photos are read when set (docs/decisions/074); else the agent says it reads only text. */
    vision:
      env.LLM_BASE_URL && env.LLM_VISION_MODEL
        ? {
            baseUrl: env.LLM_BASE_URL,
            apiKey: env.LLM_API_KEY,
            model: env.LLM_VISION_MODEL,
            timeoutMs: env.LLM_TIMEOUT_MS,
          }
        : undefined,
  }
}

let cached: Config | undefined

/** The process's configuration, checked once. */
export function getConfig(): Config {
  cached ??= loadConfig(process.env)
  return cached
}
