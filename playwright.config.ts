import { defineConfig, devices } from '@playwright/test'
import { OFFLINE_CHROMIUM_FLAGS } from './scripts/lib/processes.js'
import { E2E_META_APP } from './tests/e2e/meta-app'

export { E2E_META_APP }

const PORT = Number(process.env.E2E_PORT ?? 3100)
const FAKE_MODEL_PORT = PORT + 1
const FAKE_TELEGRAM_PORT = PORT + 2
const FAKE_GRAPH_PORT = PORT + 3
// The SMTP server, and beside it (+1) the HTTP port that lists what it received.
const FAKE_SMTP_PORT = PORT + 4
export const BASE_URL = `http://localhost:${PORT}`
// The test workers inherit this: tests steer the fake model through its control API.
process.env.E2E_FAKE_MODEL_URL = `http://127.0.0.1:${FAKE_MODEL_PORT}`
process.env.E2E_FAKE_TELEGRAM_URL = `http://127.0.0.1:${FAKE_TELEGRAM_PORT}`
process.env.E2E_FAKE_GRAPH_URL = `http://127.0.0.1:${FAKE_GRAPH_PORT}`
process.env.E2E_FAKE_MAILS_URL = `http://127.0.0.1:${FAKE_SMTP_PORT + 1}/__fake/mails`

/** End-to-end tests drive Debian's Chromium through the built app, the Auth emulator and the fakes. */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/setup/auth-emulator.global.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // CI runs two workers, two Chromiums and the server on two cores: long flows took 47 s there (20 s here).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: OFFLINE_CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node --import tsx tests/e2e/stack.ts',
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000, // the server and its fakes took 65-70 s to start on this 2-core machine under load
    // The stack stops the app and removes its data folder on SIGTERM (a SIGKILL, the default, left it in /tmp).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      EMBEDDED_DEFAULTS: 'true',
      PORT: String(PORT),
      E2E_FAKE_MODEL_PORT: String(FAKE_MODEL_PORT),
      E2E_FAKE_TELEGRAM_PORT: String(FAKE_TELEGRAM_PORT),
      E2E_FAKE_GRAPH_PORT: String(FAKE_GRAPH_PORT),
      E2E_FAKE_SMTP_PORT: String(FAKE_SMTP_PORT),
      META_APP_ID: E2E_META_APP.appId,
      META_APP_SECRET: E2E_META_APP.appSecret,
      META_VERIFY_TOKEN: E2E_META_APP.verifyToken,
      WHATSAPP_CONFIG_ID: E2E_META_APP.whatsappConfigId,
      // The fake Facebook SDK posts Embedded Signup's message from the app's own origin, not facebook.com.
      WHATSAPP_SIGNUP_ORIGINS: BASE_URL,
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099',
      LOG_LEVEL: 'warn',
    },
  },
})
