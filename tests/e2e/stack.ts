import { spawn } from 'node:child_process'
import { startOpenAiFake } from '../fakes/openai-server'

/**
 * What Playwright starts as its web server: the local stand-ins for third parties (an OpenAI-compatible model
 * for now) and the built app pointed at them. Ports come from playwright.config.ts.
 */
const appPort = Number(process.env.PORT)
const modelPort = Number(process.env.E2E_FAKE_MODEL_PORT)

const model = await startOpenAiFake({ port: modelPort })
const app = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  env: { ...process.env, PORT: String(appPort), LLM_BASE_URL: model.url, LLM_API_KEY: 'sk-e2e-fake' },
  stdio: 'inherit',
})

const stop = async () => {
  app.kill('SIGTERM')
  await model.close()
}
process.on('SIGTERM', () => void stop().then(() => process.exit(0)))
process.on('SIGINT', () => void stop().then(() => process.exit(0)))
app.on('exit', async (code) => {
  await model.close()
  process.exit(code ?? 1)
})
