import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '~/runtime/config.server'
import { tempDirsOf } from '../../tests/setup/temp-dirs'

const tempDir = tempDirsOf('replypilot-env-')
const SECRET = 'a'.repeat(40)
const KEY = 'b'.repeat(64)
/** Everything production needs. */
const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: SECRET,
  ENCRYPTION_KEY: KEY,
  FIREBASE_PROJECT_ID: 'real-project',
  FIREBASE_API_KEY: 'key',
  PUBLIC_URL: 'https://replies.example.com',
}

function problemsOf(env: Record<string, string>) {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('runs on the embedded default with nothing configured, generating secrets once', () => {
    const dir = tempDir()
    const first = loadConfig({ DATA_DIR: dir })
    expect(first.port).toBe(3000)
    expect(first.databaseUrl).toBeUndefined()
    expect(first.firebase).toMatchObject({ projectId: 'demo-replypilot', emulatorHost: '127.0.0.1:9099' })
    expect(first.publicUrl).toBe('http://localhost:3000')
    expect(first.secureCookies).toBe(false)
    expect(first.sessionSecret).toMatch(/^[0-9a-f]{64}$/)
    const stored = JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'))
    expect(stored.sessionSecret).toBe(first.sessionSecret)
    const second = loadConfig({ DATA_DIR: dir })
    expect(second.sessionSecret).toBe(first.sessionSecret)
    expect(second.encryptionKey).toBe(first.encryptionKey)
  })

  it('reads TRUST_PROXY and MIGRATIONS_DIR here too: no other module reads the environment', () => {
    const dir = tempDir()
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      trustProxy: false,
      migrationsDir: path.resolve('app/db/migrations'),
    })
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback')
    expect(loadConfig({ DATA_DIR: dir, MIGRATIONS_DIR: '/srv/migrations' }).migrationsDir).toBe(
      '/srv/migrations',
    )
  })

  it('refuses an unwritable data folder in words, only when it needs the folder', () => {
    const file = path.join(tempDir(), 'a-file')
    writeFileSync(file, '')
    const unusable = path.join(file, 'data')
    const [problem] = problemsOf({ DATA_DIR: unusable })
    expect(problem).toContain(`The data folder ${unusable} cannot be written to`)
    const withoutFolder = { ...PRODUCTION, DATA_DIR: unusable, DATABASE_URL: 'postgres://db/replypilot' }
    expect(problemsOf(withoutFolder)).toEqual([])
  })

  it('honours PORT and PUBLIC_URL', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '4123', PUBLIC_URL: 'https://example.com/' })
    expect(config.port).toBe(4123)
    expect(config.publicUrl).toBe('https://example.com')
    expect(config.secureCookies).toBe(true)
  })

  it('listens on this machine only on the embedded default, everywhere in production, or where HOST says', () => {
    const embedded = loadConfig({ DATA_DIR: tempDir() })
    expect(embedded.host).toBe('127.0.0.1')
    expect(embedded.emulatorExposed).toBe(false)
    const opened = loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0' })
    expect(opened.host).toBe('0.0.0.0')
    expect(opened.emulatorExposed).toBe(true)
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '::1' }).emulatorExposed).toBe(false)
    const production = loadConfig({ ...PRODUCTION, DATA_DIR: tempDir() })
    expect(production.host).toBeUndefined()
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: tempDir(), HOST: '0.0.0.0' }).emulatorExposed).toBe(false)
  })

  it('refuses to start in production without secrets, naming each', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATA_DIR: tempDir() })
    expect(problems.join('\n')).toContain('SESSION_SECRET is required in production')
    expect(problems.join('\n')).toContain('ENCRYPTION_KEY is required in production')
    expect(problems.join('\n')).toContain('FIREBASE_PROJECT_ID is required in production')
  })

  it('refuses the Auth emulator in production', () => {
    const problems = problemsOf({ ...PRODUCTION, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('FIREBASE_AUTH_EMULATOR_HOST is set')
  })

  it('starts in production when everything is set, without the emulator', () => {
    const config = loadConfig(PRODUCTION)
    expect(config.firebase.emulatorHost).toBeUndefined()
    expect(config.sessionSecret).toBe(SECRET)
    expect(config.secureCookies).toBe(true)
  })

  it('refuses production over http or without PUBLIC_URL: the session cookie must be Secure', () => {
    const { PUBLIC_URL: _, ...production } = PRODUCTION
    for (const PUBLIC_URL of ['http://replies.example.com', undefined]) {
      const problems = problemsOf({ ...production, ...(PUBLIC_URL ? { PUBLIC_URL } : {}) })
      expect(problems).toHaveLength(1)
      expect(problems[0]).toContain('PUBLIC_URL must be the https address')
    }
    // The embedded default (npm start) stays on http://localhost.
    const embedded = loadConfig({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', DATA_DIR: tempDir() })
    expect(embedded.secureCookies).toBe(false)
  })

  it('allows the embedded default in production only with the explicit opt-in', () => {
    const config = loadConfig({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', DATA_DIR: tempDir() })
    expect(config.production).toBe(true)
    expect(config.firebase.emulatorHost).toBe('127.0.0.1:9099')
  })

  it('rejects malformed values with a clear message', () => {
    expect(problemsOf({ PORT: 'eighty', DATA_DIR: tempDir() }).join()).toContain('PORT')
    expect(problemsOf({ ENCRYPTION_KEY: 'short', DATA_DIR: tempDir() }).join()).toContain(
      'ENCRYPTION_KEY must be 64 hexadecimal characters',
    )
  })

  it('runs the reply worker in the web process unless WORKER_IN_PROCESS is false; a window of 20 by default', () => {
    const embedded = loadConfig({ DATA_DIR: tempDir() })
    expect(embedded).toMatchObject({ workerInProcess: true, conversationWindow: 20 })
    const split = loadConfig({ DATA_DIR: tempDir(), WORKER_IN_PROCESS: 'false', CONVERSATION_WINDOW: '8' })
    expect(split).toMatchObject({ workerInProcess: false, conversationWindow: 8 })
    expect(problemsOf({ DATA_DIR: tempDir(), WORKER_IN_PROCESS: 'no' }).join()).toContain(
      'WORKER_IN_PROCESS must be true or false',
    )
    expect(problemsOf({ DATA_DIR: tempDir(), CONVERSATION_WINDOW: '0' }).join()).toContain(
      'CONVERSATION_WINDOW must be between 1 and 200',
    )
  })

  it('runs 64 reply jobs at once per process on PostgreSQL, 8 on PGlite, unless REPLY_WORKER_CONCURRENCY says', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).replyWorkerConcurrency).toBe(8)
    const postgres = { DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/replypilot' }
    expect(loadConfig(postgres).replyWorkerConcurrency).toBe(64)
    expect(loadConfig({ DATA_DIR: tempDir(), REPLY_WORKER_CONCURRENCY: '4' }).replyWorkerConcurrency).toBe(4)
    for (const bad of ['0', '257', '2.5', 'many']) {
      expect(problemsOf({ DATA_DIR: tempDir(), REPLY_WORKER_CONCURRENCY: bad }).join()).toContain(
        'REPLY_WORKER_CONCURRENCY must be between 1 and 256',
      )
    }
  })

  it('serves Telegram by long polling unless PUBLIC_URL is public https; TELEGRAM_UPDATES forces either', () => {
    const dir = tempDir()
    expect(loadConfig({ DATA_DIR: dir }).telegramUpdates).toBe('polling')
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://192.168.1.5' }).telegramUpdates).toBe('polling')
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://rp.example.com' }).telegramUpdates).toBe(
      'webhook',
    )
    const forced = { DATA_DIR: dir, PUBLIC_URL: 'http://localhost:3000', TELEGRAM_UPDATES: 'webhook' }
    expect(loadConfig(forced).telegramUpdates).toBe('webhook')
    const polling = { DATA_DIR: dir, PUBLIC_URL: 'https://rp.example.com', TELEGRAM_UPDATES: 'polling' }
    expect(loadConfig(polling).telegramUpdates).toBe('polling')
    expect(problemsOf({ DATA_DIR: dir, TELEGRAM_UPDATES: 'push' }).join()).toContain(
      'TELEGRAM_UPDATES must be auto, webhook or polling',
    )
  })

  it('bounds the reply queue at 1000 jobs unless REPLY_QUEUE_HIGH_WATER says otherwise; no worker metrics port', () => {
    expect(loadConfig({ DATA_DIR: tempDir() })).toMatchObject({
      replyQueueHighWater: 1000,
      workerMetricsPort: undefined,
    })
    expect(
      loadConfig({ DATA_DIR: tempDir(), REPLY_QUEUE_HIGH_WATER: '250', WORKER_METRICS_PORT: '9464' }),
    ).toMatchObject({ replyQueueHighWater: 250, workerMetricsPort: 9464 })
    expect(problemsOf({ DATA_DIR: tempDir(), REPLY_QUEUE_HIGH_WATER: '0' }).join()).toContain(
      'REPLY_QUEUE_HIGH_WATER must be at least 1',
    )
    expect(problemsOf({ DATA_DIR: tempDir(), WORKER_METRICS_PORT: '70000' }).join()).toContain(
      'WORKER_METRICS_PORT must be a port (1-65535)',
    )
  })

  it('checks channel health every 6 hours unless CHANNEL_HEALTH_INTERVAL_HOURS says otherwise (a divisor of 24)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).channelHealthIntervalHours).toBe(6)
    expect(
      loadConfig({ DATA_DIR: tempDir(), CHANNEL_HEALTH_INTERVAL_HOURS: '12' }).channelHealthIntervalHours,
    ).toBe(12)
    expect(problemsOf({ DATA_DIR: tempDir(), CHANNEL_HEALTH_INTERVAL_HOURS: '5' }).join()).toContain(
      'CHANNEL_HEALTH_INTERVAL_HOURS must be one of 1, 2, 3, 4, 6, 8, 12, 24',
    )
  })

  it('reads the Meta app, configured only with both id and secret; Graph v23.0 by default', () => {
    const none = loadConfig({ DATA_DIR: tempDir() })
    expect(none.meta).toMatchObject({
      configured: false,
      graphRoot: 'https://graph.facebook.com',
      graphVersion: 'v23.0',
      sdkUrl: 'https://connect.facebook.net/en_US/sdk.js',
      verifyToken: undefined,
    })
    const set = loadConfig({
      DATA_DIR: tempDir(),
      META_APP_ID: '123',
      META_APP_SECRET: 'shh',
      META_VERIFY_TOKEN: 'verify-me',
      META_GRAPH_ROOT: 'http://127.0.0.1:9/',
      WHATSAPP_CONFIG_ID: '777',
    })
    expect(set.meta).toMatchObject({
      configured: true,
      appId: '123',
      verifyToken: 'verify-me',
      graphRoot: 'http://127.0.0.1:9',
      whatsappConfigId: '777',
    })
    expect(problemsOf({ DATA_DIR: tempDir(), META_GRAPH_VERSION: '23' }).join()).toContain(
      'META_GRAPH_VERSION must look like v23.0',
    )
  })

  it("trusts Embedded Signup's message from Meta's origins, plus bare origins WHATSAPP_SIGNUP_ORIGINS adds", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).meta.signupMessageOrigins).toEqual([
      'https://www.facebook.com',
      'https://web.facebook.com',
    ])
    const extended = loadConfig({
      DATA_DIR: tempDir(),
      WHATSAPP_SIGNUP_ORIGINS: ' http://localhost:3100 , https://www.facebook.com,',
    })
    expect(extended.meta.signupMessageOrigins).toEqual([
      'https://www.facebook.com',
      'https://web.facebook.com',
      'http://localhost:3100',
    ])
    for (const value of ['*', 'https://*.example.com', 'https://app.example.com/path', 'localhost:3100']) {
      expect(problemsOf({ DATA_DIR: tempDir(), WHATSAPP_SIGNUP_ORIGINS: value }).join()).toContain(
        'WHATSAPP_SIGNUP_ORIGINS must list origins',
      )
    }
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      FIREBASE_PROJECT_ID: 'p',
      FIREBASE_API_KEY: 'k',
      PUBLIC_URL: 'https://replies.example.com',
      DATA_DIR: tempDir(),
    }
    expect(problemsOf({ ...production, WHATSAPP_SIGNUP_ORIGINS: 'http://localhost:3100' }).join()).toContain(
      'WHATSAPP_SIGNUP_ORIGINS must be https origins in production',
    )
    expect(
      loadConfig({ ...production, WHATSAPP_SIGNUP_ORIGINS: 'https://staging.example.com' }).meta
        .signupMessageOrigins,
    ).toContain('https://staging.example.com')
  })

  it('keeps /metrics behind METRICS_TOKEN, which must be long enough', () => {
    expect(loadConfig({ DATA_DIR: tempDir() })).toMatchObject({ metricsToken: undefined, embedded: true })
    expect(problemsOf({ DATA_DIR: tempDir(), METRICS_TOKEN: 'short' }).join()).toContain(
      'METRICS_TOKEN must be at least 16 characters',
    )
  })

  it('embeds knowledge with LLM_EMBEDDING_MODEL on the OpenAI-compatible endpoint only; none by default', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).llm.embedding).toBeUndefined()
    expect(
      loadConfig({ DATA_DIR: tempDir(), LLM_BASE_URL: 'http://127.0.0.1:1/v1' }).llm.embedding,
    ).toBeUndefined()
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        LLM_BASE_URL: 'http://127.0.0.1:1/v1',
        LLM_API_KEY: 'sk-key',
        LLM_EMBEDDING_MODEL: 'text-embedding-3-small',
      }).llm.embedding,
    ).toEqual({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: 'sk-key',
      model: 'text-embedding-3-small',
      timeoutMs: 30_000,
      minSimilarity: 0.4,
    })
    expect(
      problemsOf({ DATA_DIR: tempDir(), LLM_EMBEDDING_MODEL: 'text-embedding-3-small' }).join(),
    ).toContain('LLM_EMBEDDING_MODEL is set without LLM_BASE_URL')
    expect(problemsOf({ DATA_DIR: tempDir(), LLM_EMBEDDING_MIN_SIMILARITY: '1.5' }).join()).toContain(
      'LLM_EMBEDDING_MIN_SIMILARITY must be a number between 0 and 1',
    )
  })

  it('sends email through SMTP_URL from MAIL_FROM; none without it; a malformed one is refused at start', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).email).toBeUndefined()
    expect(
      loadConfig({ DATA_DIR: tempDir(), SMTP_URL: 'smtp://me:secret@mail.example.com:587' }).email,
    ).toEqual({
      smtpUrl: 'smtp://me:secret@mail.example.com:587',
      from: 'ReplyPilot <notifications@localhost>',
    })
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        SMTP_URL: 'smtps://mail.example.com',
        MAIL_FROM: 'Shop alerts <alerts@shop.example>',
      }).email,
    ).toEqual({ smtpUrl: 'smtps://mail.example.com', from: 'Shop alerts <alerts@shop.example>' })
    for (const bad of ['mail.example.com:587', 'https://mail.example.com', 'smtp://', 'smtp://host/path']) {
      expect(problemsOf({ DATA_DIR: tempDir(), SMTP_URL: bad }).join()).toContain(
        'SMTP_URL must look like smtp://user:password@smtp.example.com:587',
      )
    }
    expect(problemsOf({ DATA_DIR: tempDir(), MAIL_FROM: 'not an address' }).join()).toContain(
      'MAIL_FROM must be an address such as ReplyPilot <alerts@example.com>',
    )
  })

  it('makes Web Push keys once in the data folder unless both VAPID keys are set; one alone is refused', () => {
    const dataDir = tempDir()
    const first = loadConfig({ DATA_DIR: dataDir }).push ?? { publicKey: '', privateKey: '', subject: '' }
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect(first.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.subject).toBe('mailto:notifications@localhost')
    expect(loadConfig({ DATA_DIR: dataDir }).push).toEqual(first)
    const keys = { VAPID_PUBLIC_KEY: 'B'.repeat(87), VAPID_PRIVATE_KEY: 'k'.repeat(43) }
    expect(
      loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://replies.example.com', ...keys }).push,
    ).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
      subject: 'https://replies.example.com',
    })
    // Production that keeps nothing in the data folder: no push until the keys are set.
    const noFolder = { ...PRODUCTION, DATABASE_URL: 'postgres://db/replypilot', DATA_DIR: tempDir() }
    expect(loadConfig(noFolder).push).toBeUndefined()
    expect(problemsOf({ DATA_DIR: tempDir(), VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY }).join()).toContain(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together',
    )
  })
})
