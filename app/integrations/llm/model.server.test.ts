import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startOpenAiFake, type OpenAiFake } from '../../../tests/fakes/openai-server'
import {
  createModelClient,
  ModelError,
  NOT_CONFIGURED_MESSAGE,
  type GenerateInput,
  type LlmConfig,
} from './model.server'

const KEY = 'sk-test-SECRET123'

let fake: OpenAiFake
beforeAll(async () => {
  fake = await startOpenAiFake()
})
afterAll(() => fake.close())

const openai = (overrides: Partial<LlmConfig> = {}) =>
  createModelClient({
    openaiCompatible: { baseUrl: fake.url, apiKey: KEY },
    models: {},
    timeoutMs: 5_000,
    ...overrides,
  })

const input = (overrides: Partial<GenerateInput> = {}): GenerateInput => ({
  tier: 'simple',
  system: 'You are a terse support agent.',
  messages: [
    { role: 'user', content: 'Hello there' },
    { role: 'assistant', content: 'Hi, how can I help?' },
    { role: 'user', content: 'Where is my order?' },
  ],
  temperature: 0.3,
  ...overrides,
})

/** Runs the call, expects it to fail with a ModelError, and returns it. */
async function failure(call: Promise<unknown>): Promise<ModelError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof ModelError)) throw new Error(`expected a ModelError, got ${String(error)}`)
  expect(error.message).not.toContain(KEY)
  expect(error.message).not.toContain('SECRET123')
  return error
}

describe('an OpenAI-compatible provider', () => {
  it('sends the prompt, the messages, every sampling setting and the key; returns text, model and usage', async () => {
    const warn = vi.spyOn(console, 'warn')
    const before = fake.requests.length
    const result = await openai().generate(input({ topP: 0.8, topK: 12, maxOutputTokens: 256 }))

    const [sent] = fake.requests.slice(before)
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.3,
      top_p: 0.8,
      top_k: 12,
      max_tokens: 256,
      messages: [
        { role: 'system', content: 'You are a terse support agent.' },
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Hi, how can I help?' },
        { role: 'user', content: 'Where is my order?' },
      ],
    })
    expect(sent.body.stream).toBeFalsy()

    // The fake counts one token per word: 6 + 2 + 5 + 4 words in, "Echo: Where is my order?" out.
    expect(result).toMatchObject({
      text: 'Echo: Where is my order?',
      model: 'gpt-4o-mini',
      usage: { promptTokens: 17, completionTokens: 5, totalTokens: 22 },
    })
    expect(result.latencyMs).toBeGreaterThan(0)
    expect(warn).not.toHaveBeenCalled()
  })

  it('leaves out what the input leaves out', async () => {
    const before = fake.requests.length
    await openai().generate(input())
    const { body } = fake.requests[before]
    expect(body).not.toHaveProperty('top_k')
    expect(body).not.toHaveProperty('top_p')
    expect(body).not.toHaveProperty('max_tokens')
  })

  it('uses the model configured for the tier, else the default, and reports the model that answered', async () => {
    const client = openai({ models: { pro: 'llama3.1:8b' } })
    expect(client.provider).toBe('openai-compatible')
    expect([client.modelFor('simple'), client.modelFor('medium'), client.modelFor('pro')]).toEqual([
      'gpt-4o-mini',
      'gpt-4o-mini',
      'llama3.1:8b',
    ])
    const before = fake.requests.length
    expect((await client.generate(input({ tier: 'pro' }))).model).toBe('llama3.1:8b')
    expect(fake.requests[before].body.model).toBe('llama3.1:8b')
  })

  it('measures the latency of a slow answer', async () => {
    fake.enqueue({ delayMs: 150, reply: (request) => `Seen ${request.body.messages.length} messages` })
    const result = await openai().generate(input())
    expect(result.text).toBe('Seen 4 messages')
    expect(result.latencyMs).toBeGreaterThanOrEqual(140)
  })

  it('sends no Authorization header when no key is set (Ollama, vLLM)', async () => {
    const before = fake.requests.length
    const client = createModelClient({
      openaiCompatible: { baseUrl: fake.url },
      models: {},
      timeoutMs: 5_000,
    })
    await client.generate(input())
    expect(fake.requests[before].headers.authorization).toBeUndefined()
  })

  it('uses a custom provider name and still puts top_k on the wire', async () => {
    const before = fake.requests.length
    const client = createModelClient({
      openaiCompatible: { baseUrl: fake.url, apiKey: KEY, name: 'vllm.local' },
      models: {},
      timeoutMs: 5_000,
    })
    await client.generate(input({ topK: 40 }))
    expect(fake.requests[before].body.top_k).toBe(40)
  })
})

describe('failures become ModelErrors', () => {
  it('429 is rate-limited and retryable, with the delay the provider asks for', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '2' } }, { status: 429 })
    const error = await failure(openai().generate(input()))
    expect(error).toMatchObject({ kind: 'rate-limited', retryable: true, status: 429, retryAfterMs: 2000 })
    const without = await failure(openai().generate(input()))
    expect(without).toMatchObject({ kind: 'rate-limited', retryable: true, retryAfterMs: undefined })
  })

  it('5xx is a retryable server error', async () => {
    fake.enqueue({ status: 500 }, { status: 503 })
    expect(await failure(openai().generate(input()))).toMatchObject({
      kind: 'server',
      retryable: true,
      status: 500,
    })
    expect(await failure(openai().generate(input()))).toMatchObject({
      kind: 'server',
      retryable: true,
      status: 503,
    })
  })

  it('401 and 403 are auth errors that name the variable to check, not retryable', async () => {
    fake.enqueue(
      {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } },
      },
      { status: 403 },
    )
    const error = await failure(openai().generate(input()))
    expect(error).toMatchObject({ kind: 'auth', retryable: false, status: 401 })
    expect(error.message).toBe('The model provider rejected the API key (HTTP 401). Check LLM_API_KEY.')
    expect(await failure(openai().generate(input()))).toMatchObject({ kind: 'auth', status: 403 })
  })

  it("400 is a bad request that carries the provider's message, with any key scrubbed", async () => {
    const message = `The model 'gpt-9' does not exist (key ${KEY})`
    fake.enqueue({
      status: 400,
      body: { error: { message, type: 'invalid_request_error', code: 'model_not_found' } },
    })
    const error = await failure(openai().generate(input()))
    expect(error).toMatchObject({ kind: 'bad-request', retryable: false, status: 400 })
    expect(error.message).toContain("The model 'gpt-9' does not exist")
    expect(error.message).toContain('[redacted]')
  })

  it('a provider that does not answer in time is a retryable timeout', async () => {
    fake.enqueue({ hang: true })
    const started = performance.now()
    const error = await failure(openai({ timeoutMs: 300 }).generate(input()))
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(error).toMatchObject({ kind: 'timeout', retryable: true })
    expect(error.message).toBe('The model did not answer within 0.3 s.')
  })

  it("the caller's own abort is passed through as an abort, not classified", async () => {
    fake.enqueue({ hang: true })
    const controller = new AbortController()
    const call = openai().generate(input({ signal: controller.signal }))
    setTimeout(() => controller.abort(), 50)
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    await expect(call).rejects.not.toBeInstanceOf(ModelError)
  })

  it('a closed port is a retryable network error naming the host', async () => {
    const closed = await startOpenAiFake()
    await closed.close()
    const client = createModelClient({
      openaiCompatible: { baseUrl: closed.url, apiKey: KEY },
      models: {},
      timeoutMs: 5_000,
    })
    const error = await failure(client.generate(input()))
    expect(error).toMatchObject({ kind: 'network', retryable: true, status: undefined })
    expect(error.message).toBe(
      `Could not reach the model provider at ${new URL(closed.url).host} (connection refused).`,
    )
  })

  it('no provider is not-configured, with the message that says what to set', async () => {
    const client = createModelClient({ models: { simple: 'gpt-4o-mini' }, timeoutMs: 5_000 })
    expect(client.provider).toBe('none')
    expect(client.modelFor('simple')).toBeUndefined()
    const error = await failure(client.generate(input()))
    expect(error).toMatchObject({ kind: 'not-configured', retryable: false })
    expect(error.message).toBe(
      'No model provider is configured. Set LLM_BASE_URL (and LLM_API_KEY) for an OpenAI-compatible endpoint such as OpenAI, Ollama or vLLM, or set ANTHROPIC_API_KEY.',
    )
    expect(error.message).toBe(NOT_CONFIGURED_MESSAGE)
  })
})

describe('the Anthropic provider', () => {
  const anthropic = () =>
    createModelClient({ anthropic: { apiKey: KEY, baseUrl: fake.url }, models: {}, timeoutMs: 5_000 })

  it('is used when no OpenAI-compatible endpoint is set, and carries top_k as its own setting', async () => {
    const warn = vi.spyOn(console, 'warn')
    const client = anthropic()
    expect(client.provider).toBe('anthropic')
    expect(client.modelFor('medium')).toBe('claude-sonnet-4-5')
    const before = fake.requests.length
    const result = await client.generate(input({ tier: 'medium', topP: 0.8, topK: 12, maxOutputTokens: 256 }))

    const [sent] = fake.requests.slice(before)
    expect(sent.path).toBe('/v1/messages')
    expect(sent.headers['x-api-key']).toBe(KEY)
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      temperature: 0.3,
      top_k: 12,
      max_tokens: 256,
    })
    expect(JSON.stringify(sent.body.system)).toContain('You are a terse support agent.')
    // Claude takes temperature or top_p, not both: the provider drops top_p when a temperature is set.
    expect(sent.body).not.toHaveProperty('top_p')
    expect(result).toMatchObject({
      text: 'Echo: Where is my order?',
      model: 'claude-sonnet-4-5',
      usage: { promptTokens: 17, completionTokens: 5, totalTokens: 22 },
    })
    expect(warn).not.toHaveBeenCalled()
  })

  it('an OpenAI-compatible endpoint wins when both are set; a rejected key names ANTHROPIC_API_KEY', async () => {
    const both = createModelClient({
      openaiCompatible: { baseUrl: fake.url },
      anthropic: { apiKey: KEY },
      models: {},
      timeoutMs: 5_000,
    })
    expect(both.provider).toBe('openai-compatible')
    fake.enqueue({ status: 401 })
    const error = await failure(anthropic().generate(input()))
    expect(error.message).toBe('The model provider rejected the API key (HTTP 401). Check ANTHROPIC_API_KEY.')
  })
})
