import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startGraphFake } from '../fakes/graph-server'
import { startOpenAiFake } from '../fakes/openai-server'
import { startSmtpFake } from '../fakes/smtp-server'
import { startTelegramFake } from '../fakes/telegram-server'

/**
 * What Playwright starts as its web server: the local stand-ins for third parties (an OpenAI-compatible model and
 * the Telegram Bot API, Meta's Graph API, an SMTP server) and the built app pointed at them. Ports come from playwright.config.ts.
 */
const appPort = Number(process.env.PORT)
const modelPort = Number(process.env.E2E_FAKE_MODEL_PORT)
const telegramPort = Number(process.env.E2E_FAKE_TELEGRAM_PORT)
const graphPort = Number(process.env.E2E_FAKE_GRAPH_PORT)
const smtpPort = Number(process.env.E2E_FAKE_SMTP_PORT)

const [model, telegram, graph, smtp] = await Promise.all([
  startOpenAiFake({ port: modelPort }),
  startTelegramFake({ port: telegramPort }),
  startGraphFake({
    port: graphPort,
    appId: process.env.META_APP_ID ?? '',
    appSecret: process.env.META_APP_SECRET ?? '',
  }),
  startSmtpFake({ port: smtpPort, controlPort: smtpPort + 1 }),
])
// The app's embedded database, this run's own, removed once the app has stopped.
const dataDir = mkdtempSync(path.join(tmpdir(), 'replypilot-e2e-'))
const app = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  env: {
    ...process.env,
    PORT: String(appPort),
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-e2e-fake',
    // Voice notes are transcribed and photos described by the model fake (issue 37).
    LLM_TRANSCRIPTION_MODEL: 'whisper-1',
    LLM_VISION_MODEL: 'gpt-4o-mini',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    // The app is on localhost, which the fake Telegram server can call: webhooks, as in production, rather than
    // the long polling that a localhost PUBLIC_URL means by default.
    TELEGRAM_UPDATES: 'webhook',
    META_GRAPH_ROOT: graph.graphRoot,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ReplyPilot <alerts@replypilot.example>',
    DATA_DIR: dataDir,
  },
  stdio: 'inherit',
})

// Playwright stops the stack with SIGTERM (its whole process group, the app too, which stops once whatever the
// number of signals). Once the app has stopped, on a signal or on its own: the fakes closed, the data folder
// removed, and the app's exit code passed on unless a signal asked for the stop.
let signalled = false
const stop = () => {
  signalled = true
  app.kill('SIGTERM')
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
app.on('exit', async (code) => {
  await Promise.all([model.close(), telegram.close(), graph.close(), smtp.close()])
  rmSync(dataDir, { recursive: true, force: true })
  // Exits now rather than when the last handle closes (a fake's idle socket could keep it up until Playwright's
  // SIGKILL); a stop Playwright asked for is a clean exit, an app that stopped on its own fails the run.
  process.exit(signalled ? 0 : (code ?? 1))
})
