import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import { z } from 'zod'
import { sha256Of } from './hash'

/**
 * A local stand-in for an OpenAI-compatible model server (OpenAI, Ollama, vLLM...), spoken to over real HTTP.
 * It answers `POST /v1/chat/completions` without streaming (the AI SDK's generateText does not stream) and
 * `GET /v1/models` and `POST /v1/audio/transcriptions` (OpenAI's multipart speech to text: a clip it was told of
 * with `addTranscript` gets its text, any other file a 400 as for a file the model cannot decode). It also answers Anthropic's `POST /v1/messages` minimally, so that the Anthropic provider's
 * request can be inspected the same way.
 */

// Loose on purpose: anything the client sends is kept so that tests can assert on it (top_k, max_tokens...).
const requestBody = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).default([]),
  system: z.unknown().optional(),
  stream: z.boolean().optional(),
})
export type ChatRequestBody = z.infer<typeof requestBody>

export type RecordedRequest = {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: ChatRequestBody
  /** Wall-clock milliseconds (sub-millisecond, comparable across processes) when the request was read. */
  receivedAt: number
  /** When the answer was written (undefined while it is pending, or for one that hangs). */
  answeredAt?: number
}

/** Milliseconds since the epoch with sub-millisecond precision. */
export const wallClockMs = () => performance.timeOrigin + performance.now()

/** What the next answer does. Fields combine: `delayMs` waits, then `hang`, `status` or `reply` decides. */
export type Behavior = {
  reply?: string | ((request: RecordedRequest) => string)
  delayMs?: number
  /** An HTTP error status, answered with OpenAI's error shape unless `body` is given. */
  status?: number
  body?: unknown
  headers?: Record<string, string>
  /** Never answer: for client timeouts. */
  hang?: boolean
  /** Only for a request whose last user message contains this text (so parallel tests do not take each other's). */
  match?: string
  /**
   * Answer with a call of this tool (OpenAI's `tool_calls`, Anthropic's `tool_use`) instead of text; the
   * arguments are sent as the protocols carry them. `reply`, if given too, is the text beside the call.
   */
  toolCall?: { name: string; arguments: Record<string, unknown> }
}

/** The part of a behaviour that can travel as JSON, for the HTTP control API. */
const behaviorJson = z.object({
  reply: z.string().optional(),
  delayMs: z.number().int().min(0).max(60_000).optional(),
  status: z.number().int().min(100).max(599).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  hang: z.boolean().optional(),
  match: z.string().optional(),
  toolCall: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }).optional(),
})

/** A transcription request as the fake read it. */
export type TranscriptionRequest = {
  model: string | null
  fileName: string | null
  contentType: string | null
  sha256: string
  responseFormat: string | null
  authorization: string | undefined
  receivedAt: number
}

export type OpenAiFake = {
  /** Base URL ending in /v1, as clients expect it. */
  url: string
  requests: RecordedRequest[]
  transcriptions: TranscriptionRequest[]
  /** What a clip says (known by its SHA-256). */
  addTranscript(sha256: string, text: string): void
  /** One-shot behaviours of the next transcription requests (`status`, `body`, `delayMs`, `hang`). */
  enqueueTranscription(...behaviors: Behavior[]): void
  /** The behaviour of every request from now on; `{}` restores the echo. */
  setBehavior(behavior: Behavior): void
  /** One-shot behaviours, used in order by the next requests before the default applies again. */
  enqueue(...behaviors: Behavior[]): void
  close(): Promise<void>
}

const errorType = (status: number) =>
  status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error'

/** Text of a message whether the client sent a string or an array of `{ type: 'text', text }` parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .join('')
}

/** Deterministic token counts: one token per whitespace-separated word. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length

function echo(request: RecordedRequest): string {
  const lastUser = request.body.messages.findLast((message) => message.role === 'user')
  return `Echo: ${lastUser ? textOf(lastUser.content) : ''}`
}

function parseJson(raw: string): unknown {
  try {
    return raw ? JSON.parse(raw) : {}
  } catch {
    return {}
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/**
 * Starts the fake. With `port`, it listens there (for a fake shared with another process, such as the app
 * under Playwright), and offers a control API for that process's tests:
 *   POST /__fake/next      queue a one-shot behaviour (JSON; `match` ties it to a message)
 *   POST /__fake/behavior  the behaviour of every later request (JSON, e.g. `{"delayMs": 200}` for a fixed
 *                          answer delay; `{}` restores the immediate echo)
 *   GET  /__fake/requests  the recorded requests
 *   POST /__fake/transcripts  what a clip says: `{ sha256, text }` (see addTranscript)
 */
export async function startOpenAiFake(
  options: { behavior?: Behavior; port?: number } = {},
): Promise<OpenAiFake> {
  const requests: RecordedRequest[] = []
  const transcriptions: TranscriptionRequest[] = []
  const transcripts = new Map<string, string>()
  const transcriptionQueue: Behavior[] = []
  const queue: Behavior[] = []
  let fallback: Behavior = options.behavior ?? {}
  let answered = 0

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname
      if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
        void transcribe(req.headers, Buffer.concat(chunks), res)
        return
      }
      const raw = Buffer.concat(chunks).toString('utf8')
      const parsed = requestBody.safeParse(parseJson(raw))
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body: parsed.success ? parsed.data : { messages: [] },
        receivedAt: wallClockMs(),
      }
      requests.push(request)
      void respond(request, res)
    })
  })

  /** OpenAI's multipart transcription: `file` and `model`; answers `{ text }` (response_format json). */
  async function transcribe(headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse) {
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': headers['content-type'] ?? '' },
      body: new Uint8Array(body),
    })
      .formData()
      .catch(() => undefined)
    const file = form?.get('file')
    const bytes = file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array()
    const sha256 = sha256Of(bytes)
    const field = (name: string) => (typeof form?.get(name) === 'string' ? (form.get(name) as string) : null)
    transcriptions.push({
      model: field('model'),
      fileName: file instanceof File ? file.name : null,
      contentType: file instanceof Blob ? file.type : null,
      sha256,
      responseFormat: field('response_format'),
      authorization: headers.authorization,
      receivedAt: wallClockMs(),
    })
    const behavior = transcriptionQueue.shift() ?? {}
    if (behavior.delayMs) await new Promise((resolve) => setTimeout(resolve, behavior.delayMs))
    if (behavior.hang) return
    if (behavior.status && behavior.status >= 400) {
      const type = errorType(behavior.status)
      return sendJson(
        res,
        behavior.status,
        behavior.body ?? { error: { message: `Fake error`, type, code: type } },
      )
    }
    if (!(file instanceof Blob) || !field('model')) {
      return sendJson(res, 400, {
        error: { message: 'file and model are required', type: 'invalid_request_error' },
      })
    }
    const text = transcripts.get(sha256)
    if (text === undefined) {
      const message = 'Audio file might be corrupted or unsupported'
      return sendJson(res, 400, { error: { message, type: 'invalid_request_error', code: 'invalid_value' } })
    }
    sendJson(res, 200, { text })
  }

  async function respond(request: RecordedRequest, res: ServerResponse) {
    const route = `${request.method} ${request.path}`
    if (route === 'POST /__fake/next') {
      requests.pop()
      const parsed = behaviorJson.safeParse(request.body)
      if (!parsed.success) return sendJson(res, 400, { error: parsed.error.issues })
      queue.push(parsed.data)
      return sendJson(res, 200, { queued: queue.length })
    }
    if (route === 'POST /__fake/behavior') {
      requests.pop()
      const parsed = behaviorJson.safeParse(request.body)
      if (!parsed.success) return sendJson(res, 400, { error: parsed.error.issues })
      fallback = parsed.data
      return sendJson(res, 200, { behavior: fallback })
    }
    if (route === 'POST /__fake/transcripts') {
      requests.pop()
      const parsed = z.object({ sha256: z.string(), text: z.string() }).safeParse(request.body)
      if (!parsed.success) return sendJson(res, 400, { error: parsed.error.issues })
      transcripts.set(parsed.data.sha256, parsed.data.text)
      return sendJson(res, 200, { known: transcripts.size })
    }
    if (route === 'GET /__fake/requests') {
      requests.pop()
      return sendJson(
        res,
        200,
        requests.map(({ path, body, receivedAt, answeredAt }) => ({ path, body, receivedAt, answeredAt })),
      )
    }
    if (route === 'GET /v1/models') {
      const data = ['gpt-4o-mini', 'gpt-4o'].map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'fake',
      }))
      return sendJson(res, 200, { object: 'list', data })
    }
    if (route !== 'POST /v1/chat/completions' && route !== 'POST /v1/messages') {
      return sendJson(res, 404, {
        error: { message: `No route ${route}`, type: 'not_found_error', code: null },
      })
    }
    const lastUser = textOf(request.body.messages.findLast((m) => m.role === 'user')?.content)
    const index = queue.findIndex((b) => b.match === undefined || lastUser.includes(b.match))
    const behavior = (index >= 0 ? queue.splice(index, 1)[0] : undefined) ?? fallback
    if (behavior.delayMs) await new Promise((resolve) => setTimeout(resolve, behavior.delayMs))
    if (behavior.hang) return // the socket stays open until the client gives up or close() destroys it
    if (behavior.status && behavior.status >= 400) {
      const type = errorType(behavior.status)
      const body = behavior.body ?? { error: { message: `Fake error ${behavior.status}`, type, code: type } }
      return sendJson(res, behavior.status, body, behavior.headers)
    }
    if (request.body.stream) {
      const error = { message: 'The fake does not stream', type: 'invalid_request_error', code: null }
      return sendJson(res, 400, { error })
    }

    const call = behavior.toolCall
    const text =
      typeof behavior.reply === 'function'
        ? behavior.reply(request)
        : (behavior.reply ?? (call ? '' : echo(request)))
    const model = request.body.model ?? 'fake-model'
    const promptText = [textOf(request.body.system), ...request.body.messages.map((m) => textOf(m.content))]
    const promptTokens = promptText.reduce((sum, part) => sum + countWords(part), 0)
    const completionTokens = countWords(text)
    const id = `fake-${++answered}`

    const answer =
      request.path === '/v1/messages'
        ? {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [
              ...(text ? [{ type: 'text', text }] : []),
              ...(call
                ? [{ type: 'tool_use', id: `toolu_${id}`, name: call.name, input: call.arguments }]
                : []),
            ],
            stop_reason: call ? 'tool_use' : 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: promptTokens, output_tokens: completionTokens },
          }
        : {
            id,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: text || null,
                  ...(call && {
                    tool_calls: [
                      {
                        id: `call_${id}`,
                        type: 'function',
                        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                      },
                    ],
                  }),
                },
                finish_reason: call ? 'tool_calls' : 'stop',
              },
            ],
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completionTokens,
              total_tokens: promptTokens + completionTokens,
            },
          }
    request.answeredAt = wallClockMs()
    sendJson(res, 200, answer, behavior.headers)
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')

  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    transcriptions,
    addTranscript(sha256, text) {
      transcripts.set(sha256, text)
    },
    enqueueTranscription(...behaviors) {
      transcriptionQueue.push(...behaviors)
    },
    setBehavior(behavior) {
      fallback = behavior
    },
    enqueue(...behaviors) {
      queue.push(...behaviors)
    },
    close() {
      // Hanging requests and keep-alive sockets would otherwise keep close() waiting.
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}
