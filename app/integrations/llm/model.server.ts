import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { createKeepAliveFetch } from '~/integrations/http/keep-alive-fetch.server'
import { generateText, tool, type LanguageModel } from 'ai'
import { z } from 'zod'
import { ModelError, toModelError } from './errors'

export { ModelError, type ModelErrorKind } from './errors'

export type ModelTier = 'simple' | 'medium' | 'pro'

export type LlmConfig = {
  /** Any server that speaks OpenAI's Chat Completions: OpenAI, Ollama, vLLM, OpenRouter... Wins over `anthropic`. */
  openaiCompatible?: { baseUrl: string; apiKey?: string; name?: string }
  anthropic?: { apiKey: string; baseUrl?: string }
  /** Model id per tier; the provider's default where absent. */
  models: Partial<Record<ModelTier, string>>
  timeoutMs: number
}

export type ChatMessage = { role: 'user' | 'assistant'; content: string }

export type GenerateInput = {
  tier: ModelTier
  system: string
  messages: ChatMessage[]
  temperature: number
  topP?: number
  topK?: number
  maxOutputTokens?: number
  /** Offer the model the `handoff` tool: it may hand the conversation to a person instead of answering. */
  handoff?: boolean
  signal?: AbortSignal
}

/** What the model is told about the `handoff` tool. */
export const HANDOFF_TOOL = {
  name: 'handoff',
  description:
    'Hand the conversation over to a person from the team. Call it when the customer asks to talk to a person, ' +
    'or when you cannot help with their request. Give a short reason for the team.',
} as const

const handoffTool = tool({
  description: HANDOFF_TOOL.description,
  inputSchema: z.object({ reason: z.string().describe('Why a person should take over, in one sentence') }),
})

export type GenerateResult = {
  text: string
  /** The model id that answered (as the provider reports it), else the one requested. */
  model: string
  usage: { promptTokens: number; completionTokens: number; totalTokens: number }
  latencyMs: number
  /** The model called the `handoff` tool (only when it was offered), with its reason. */
  handoff?: { reason: string }
}

export type ModelProvider = 'openai-compatible' | 'anthropic' | 'none'

export type ModelClient = {
  generate(input: GenerateInput): Promise<GenerateResult>
  provider: ModelProvider
  /** The model id a tier resolves to; undefined when no provider is configured. */
  modelFor(tier: ModelTier): string | undefined
}

export const NOT_CONFIGURED_MESSAGE =
  'No model provider is configured. Set LLM_BASE_URL (and LLM_API_KEY) for an OpenAI-compatible endpoint such as OpenAI, Ollama or vLLM, or set ANTHROPIC_API_KEY.'

const DEFAULT_MODELS: Record<Exclude<ModelProvider, 'none'>, Record<ModelTier, string>> = {
  'openai-compatible': { simple: 'gpt-4o-mini', medium: 'gpt-4o-mini', pro: 'gpt-4o' },
  // Ids listed by @ai-sdk/anthropic's AnthropicMessagesModelId; all of them accept temperature and top_k.
  anthropic: { simple: 'claude-haiku-4-5', medium: 'claude-sonnet-4-5', pro: 'claude-opus-4-1' },
}

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1'

// The AI SDK prints every warning (a setting a model ignores...) with console.warn. What we send is decided here
// and tested, so these are noise in the logs and fail tests; a logger installed by someone else is kept.
globalThis.AI_SDK_LOG_WARNINGS ??= false

type Target = {
  provider: Exclude<ModelProvider, 'none'>
  model(id: string): LanguageModel
  /** Sampling settings as this provider carries them. */
  sampling(
    input: GenerateInput,
  ): Pick<Parameters<typeof generateText>[0], 'topP' | 'topK' | 'providerOptions'>
  host: string
  keyVariable: string
}

function hostOf(url: string, fallback: string): string {
  try {
    return new URL(url).host // never the user:password part
  } catch {
    return fallback
  }
}

/** One pool of keep-alive connections to the model providers for the process. */
const keepAliveFetch = createKeepAliveFetch()

function resolveTarget(config: LlmConfig): Target | undefined {
  if (config.openaiCompatible) {
    const { baseUrl, apiKey } = config.openaiCompatible
    // The provider reads its providerOptions under this name (up to the first dot), so keep it a plain word.
    const name = (config.openaiCompatible.name ?? '').replace(/[^A-Za-z0-9_-]/g, '') || 'openaiCompatible'
    const provider = createOpenAICompatible({ name, baseURL: baseUrl, apiKey, fetch: keepAliveFetch })
    return {
      provider: 'openai-compatible',
      model: (id) => provider.chatModel(id),
      // top_k is not in OpenAI's protocol (the provider would drop topK with a warning), but vLLM, Ollama and
      // OpenRouter read it: keys under providerOptions[name] that the provider does not know go into the body.
      sampling: ({ topP, topK }) => ({
        topP,
        providerOptions: topK === undefined ? undefined : { [name]: { top_k: topK } },
      }),
      host: hostOf(baseUrl, 'LLM_BASE_URL'),
      keyVariable: 'LLM_API_KEY',
    }
  }
  if (config.anthropic) {
    const { apiKey, baseUrl } = config.anthropic
    const provider = createAnthropic({ apiKey, baseURL: baseUrl, fetch: keepAliveFetch })
    return {
      provider: 'anthropic',
      model: (id) => provider.messages(id),
      // Claude models take temperature or top_p, not both: the provider drops topP when temperature is set.
      sampling: ({ topP, topK }) => ({ topP, topK }),
      host: hostOf(baseUrl ?? ANTHROPIC_BASE_URL, 'the Anthropic API'),
      keyVariable: 'ANTHROPIC_API_KEY',
    }
  }
  return undefined
}

/** A handoff's reason as the model gave it (a tool's input is checked by the SDK; this also bounds its length). */
function reasonOf(input: unknown): string {
  const reason =
    input && typeof input === 'object' && 'reason' in input && typeof input.reason === 'string'
      ? input.reason
      : ''
  return reason.trim().slice(0, 500) || 'The customer asked for a person'
}

/**
 * The model layer: one `generate` call per answer, on whichever provider the configuration names. It does not
 * retry (callers own the retry policy) and throws ModelError, except when the caller's own signal aborts the
 * call: then the abort error is rethrown as it is.
 */
export function createModelClient(config: LlmConfig): ModelClient {
  const target = resolveTarget(config)
  const secrets = [config.openaiCompatible?.apiKey, config.anthropic?.apiKey].filter(
    (key) => key !== undefined,
  )

  // A provider's model object is plain configuration, and building one costs about a millisecond of schemas:
  // built once per model id, not once per answer.
  const models = new Map<string, LanguageModel>()

  function modelFor(tier: ModelTier): string | undefined {
    if (!target) return undefined
    return config.models[tier] ?? DEFAULT_MODELS[target.provider][tier]
  }

  async function generate(input: GenerateInput): Promise<GenerateResult> {
    const modelId = modelFor(input.tier)
    if (!target || modelId === undefined) throw new ModelError('not-configured', NOT_CONFIGURED_MESSAGE)

    let model = models.get(modelId)
    if (!model) {
      model = target.model(modelId)
      models.set(modelId, model)
    }
    const timeout = AbortSignal.timeout(config.timeoutMs)
    const abortSignal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout
    const started = performance.now()
    try {
      const result = await generateText({
        model,
        system: input.system,
        messages: input.messages,
        temperature: input.temperature,
        maxOutputTokens: input.maxOutputTokens,
        ...target.sampling(input),
        ...(input.handoff && { tools: { [HANDOFF_TOOL.name]: handoffTool } }),
        maxRetries: 0,
        abortSignal,
      })
      const call = result.toolCalls.find((candidate) => candidate.toolName === HANDOFF_TOOL.name)
      const promptTokens = result.usage.inputTokens ?? 0
      const completionTokens = result.usage.outputTokens ?? 0
      return {
        text: result.text,
        model: result.response.modelId || modelId,
        usage: {
          promptTokens,
          completionTokens,
          totalTokens: result.usage.totalTokens ?? promptTokens + completionTokens,
        },
        latencyMs: performance.now() - started,
        ...(call && { handoff: { reason: reasonOf(call.input) } }),
      }
    } catch (error) {
      if (input.signal?.aborted && !timeout.aborted) throw error
      throw toModelError(error, {
        host: target.host,
        keyVariable: target.keyVariable,
        timeoutMs: config.timeoutMs,
        timedOut: timeout.aborted,
        secrets,
      })
    }
  }

  return { generate, provider: target?.provider ?? 'none', modelFor }
}
