import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { embedMany, type EmbeddingModel } from 'ai'
import { createKeepAliveFetch } from '~/integrations/http/keep-alive-fetch.server'
import { toModelError } from './errors'

export type EmbeddingConfig = {
  /** The OpenAI-compatible endpoint (LLM_BASE_URL, LLM_API_KEY) that serves `POST /embeddings`. */
  baseUrl: string
  apiKey?: string
  /** LLM_EMBEDDING_MODEL. */
  model: string
  timeoutMs: number
}

export type EmbeddingClient = {
  /** The model's id, as configured. */
  model: string
  /**
   * One vector per text, in order. Texts go EMBEDDING_BATCH to a request, one request at a time. Throws
   * ModelError (never with the API key in its message).
   */
  embed(texts: string[], options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<number[][]>
}

/** Texts per request: well under every provider's limit (OpenAI's is 2,048), small enough to time out alone. */
export const EMBEDDING_BATCH = 64

const keepAliveFetch = createKeepAliveFetch()

function hostOf(url: string): string {
  try {
    return new URL(url).host // never the user:password part
  } catch {
    return 'LLM_BASE_URL'
  }
}

/** Whether a failure is a reset connection (its cause, or its cause's cause...). */
function isConnectionReset(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if ('code' in cause && cause.code === 'ECONNRESET') return true
  }
  return false
}

/** The embedding model of the OpenAI-compatible endpoint (docs/decisions/043). */
export function createEmbeddingClient(config: EmbeddingConfig): EmbeddingClient {
  const provider = createOpenAICompatible({
    name: 'embeddings',
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    fetch: keepAliveFetch,
  })
  const model: EmbeddingModel = provider.embeddingModel(config.model)
  const secrets = config.apiKey ? [config.apiKey] : []

  async function embedBatch(
    values: string[],
    { signal, timeoutMs = config.timeoutMs }: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<number[][]> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout
    const call = () => embedMany({ model, values, maxRetries: 0, abortSignal })
    try {
      // A kept-alive connection the server closed as the request went out is reset: sent again once, on a new one.
      const { embeddings } = await call().catch((error: unknown) => {
        if (!isConnectionReset(error) || abortSignal.aborted) throw error
        return call()
      })
      return embeddings
    } catch (error) {
      throw toModelError(error, {
        host: hostOf(config.baseUrl),
        keyVariable: 'LLM_API_KEY',
        timeoutMs,
        timedOut: timeout.aborted,
        secrets,
      })
    }
  }

  return {
    model: config.model,
    async embed(texts, options = {}) {
      const vectors: number[][] = []
      for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
        vectors.push(...(await embedBatch(texts.slice(start, start + EMBEDDING_BATCH), options)))
      }
      return vectors
    },
  }
}
