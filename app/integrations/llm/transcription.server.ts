import { APICallError } from 'ai'
import { z } from 'zod'
import { ModelError, toModelError } from './errors'

export type TranscriptionConfig = {
  /** The OpenAI-compatible endpoint (LLM_BASE_URL, LLM_API_KEY) that serves `POST /audio/transcriptions`. */
  baseUrl: string
  apiKey?: string
  /** LLM_TRANSCRIPTION_MODEL: whisper-1, or what a local faster-whisper or whisper.cpp server calls its model. */
  model: string
  timeoutMs: number
}

export type Transcriber = {
  model: string
  /** What is said in the recording. Throws ModelError (never with the API key in its message). */
  transcribe(
    audio: { bytes: Uint8Array; contentType: string; fileName: string },
    options?: { signal?: AbortSignal },
  ): Promise<string>
}

// OpenAI's answer with response_format=json; faster-whisper and whisper.cpp servers answer the same.
const transcriptionSchema = z.object({ text: z.string() })

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'LLM_BASE_URL'
  }
}

/** Speech to text through the endpoint's `/audio/transcriptions` (OpenAI's multipart protocol), ADR 074. */
export function createTranscriber(config: TranscriptionConfig): Transcriber {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`
  const context = {
    host: hostOf(config.baseUrl),
    keyVariable: 'LLM_API_KEY',
    timeoutMs: config.timeoutMs,
    secrets: config.apiKey ? [config.apiKey] : [],
  }

  async function post(form: FormData, signal: AbortSignal) {
    const response = await fetch(url, {
      method: 'POST',
      headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : undefined,
      body: form,
      signal,
    })
    const body = await response.text()
    if (!response.ok) {
      throw new APICallError({
        message: body.slice(0, 300) || response.statusText,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        responseHeaders: Object.fromEntries(response.headers),
        responseBody: body,
      })
    }
    const parsed = transcriptionSchema.safeParse(JSON.parse(body || 'null'))
    if (!parsed.success) {
      throw new ModelError('unknown', 'The transcription service sent an answer that could not be read.')
    }
    return parsed.data.text
  }

  return {
    model: config.model,
    async transcribe({ bytes, contentType, fileName }, { signal } = {}) {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(bytes)], { type: contentType }), fileName)
      form.set('model', config.model)
      form.set('response_format', 'json')
      const timeout = AbortSignal.timeout(config.timeoutMs)
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
      try {
        return await post(form, combined)
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        if (error instanceof ModelError) throw error
        if (error instanceof SyntaxError) {
          throw new ModelError('unknown', 'The transcription service sent an answer that could not be read.')
        }
        throw toModelError(error, { ...context, timedOut: timeout.aborted })
      }
    },
  }
}
