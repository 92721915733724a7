import type { EmbeddingClient } from '~/integrations/llm/embeddings.server'
import type { Logger } from '~/utils/logger.server'

// The optional embedding model of the knowledge base (docs/decisions/043). Retrieval never depends on it: a failed
// call is logged and the search (or the source's processing) goes on with keywords only.

export type KnowledgeEmbeddings = {
  client: EmbeddingClient
  /** The cosine similarity a passage found only by its vector needs (LLM_EMBEDDING_MIN_SIMILARITY). */
  minSimilarity: number
  logger: Logger
}

/** What a passage's vector is made from: its source title and headings, then its text (as the keywords weigh them). */
export function passageEmbeddingText(
  title: string,
  passage: { headingPath: string[]; text: string },
): string {
  return `${[title, ...passage.headingPath].join(' › ')}\n${passage.text}`
}

/** A question waits this long at most for its vector (a customer is waiting); then keywords answer alone. */
export const QUESTION_TIMEOUT_MS = 5_000

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * A vector for each passage of a source, in order; undefined when the endpoint fails (logged, without secrets: the
 * model layer's messages never carry the key): the passages are stored without vectors, keyword search still finds
 * them, and the next processing of the source (an edit, a re-fetch) embeds them again.
 */
export async function embedPassages(
  embeddings: KnowledgeEmbeddings,
  title: string,
  passages: { headingPath: string[]; text: string }[],
  context: { sourceId: string },
): Promise<number[][] | undefined> {
  if (passages.length === 0) return []
  try {
    const vectors = await embeddings.client.embed(
      passages.map((passage) => passageEmbeddingText(title, passage)),
    )
    if (vectors.length !== passages.length)
      throw new Error(`${vectors.length} vectors for ${passages.length} texts`)
    return vectors
  } catch (error) {
    embeddings.logger.warn('knowledge passages not embedded: keyword search only for this source', {
      ...context,
      model: embeddings.client.model,
      reason: reasonOf(error),
    })
    return undefined
  }
}

/** The question's vector; undefined when the endpoint fails (logged): the search is then keywords only. */
export async function embedQuestion(
  embeddings: KnowledgeEmbeddings,
  question: string,
  context: { organizationId: string },
): Promise<number[] | undefined> {
  try {
    const [vector] = await embeddings.client.embed([question], { timeoutMs: QUESTION_TIMEOUT_MS })
    return vector
  } catch (error) {
    embeddings.logger.warn('knowledge question not embedded: keyword search only', {
      ...context,
      model: embeddings.client.model,
      reason: reasonOf(error),
    })
    return undefined
  }
}
