import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText } from 'ai'
import { createKeepAliveFetch } from '~/integrations/http/keep-alive-fetch.server'
import { toModelError } from './errors'

export type VisionConfig = {
  /** The OpenAI-compatible endpoint (LLM_BASE_URL, LLM_API_KEY). */
  baseUrl: string
  apiKey?: string
  /** LLM_VISION_MODEL: a model that reads image parts (gpt-4o-mini, a local llava or qwen-vl...). */
  model: string
  timeoutMs: number
}

export type PhotoReader = {
  model: string
  /**
   * What a customer's photo shows, for an agent that cannot see it, the caption beside it. Throws ModelError (never
   * with the API key in its message).
   */
  describe(
    photo: { bytes: Uint8Array; contentType: string; caption?: string },
    options?: { signal?: AbortSignal },
  ): Promise<string>
}

/** What the vision model is asked: the facts a reply needs, in the customer's words where the photo has text. */
export const PHOTO_INSTRUCTIONS =
  'A customer sent this photo to a business in a chat. Describe what it shows in two or three plain sentences, ' +
  'for a customer-service agent who cannot see it: the objects, their state (damage, faults), and any text, ' +
  'numbers or codes in it, copied exactly. Do not greet, do not answer the customer, do not guess what is not shown.'

const keepAliveFetch = createKeepAliveFetch()

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return 'LLM_BASE_URL'
  }
}

/** Photos read by the endpoint's vision model, sent as an image part through the AI SDK (docs/decisions/074). */
export function createPhotoReader(config: VisionConfig): PhotoReader {
  const provider = createOpenAICompatible({
    name: 'vision',
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    fetch: keepAliveFetch,
  })
  const model = provider.chatModel(config.model)
  return {
    model: config.model,
    async describe({ bytes, contentType, caption }, { signal } = {}) {
      const timeout = AbortSignal.timeout(config.timeoutMs)
      const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout
      const text = caption?.trim()
        ? `${PHOTO_INSTRUCTIONS}\nThe customer's caption: ${caption.trim()}`
        : PHOTO_INSTRUCTIONS
      try {
        const result = await generateText({
          model,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text },
                { type: 'image', image: bytes, mediaType: contentType },
              ],
            },
          ],
          temperature: 0,
          maxOutputTokens: 300,
          maxRetries: 0,
          abortSignal,
        })
        return result.text.trim()
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        throw toModelError(error, {
          host: hostOf(config.baseUrl),
          keyVariable: 'LLM_API_KEY',
          timeoutMs: config.timeoutMs,
          timedOut: timeout.aborted,
          secrets: config.apiKey ? [config.apiKey] : [],
        })
      }
    },
  }
}
