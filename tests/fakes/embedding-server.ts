import { createServer } from 'node:http'
import { z } from 'zod'

/**
 * A local stand-in for an OpenAI-compatible embedding endpoint (`POST /v1/embeddings`, OpenAI's request and answer
 * shapes), spoken to over real HTTP. It is NOT a model: a text's vector is the feature hashing of its lower-cased
 * word stems (weight 1) and their character trigrams (weight 0.5) into DIMS dimensions, scaled to length 1, so
 * that texts sharing words or parts of words are near and the same text always gets the same vector. A tiny
 * table of stand-in synonyms (FAKE_SYNONYMS, below) maps a few words onto one feature, only to show fusion
 * finding what keywords cannot; nothing else about meaning is known to it.
 */

export const FAKE_EMBEDDING_DIMS = 256

/**
 * Words the fake treats as one (each group hashed as one feature). Chosen to be absent from the keyword search's
 * own alternatives (query-words.ts), so that a question using one and a passage using another shares no keyword.
 */
export const FAKE_SYNONYMS: string[][] = [
  ['umbrella', 'parasol', 'brolly'],
  // A multilingual model places a word and its translations together (issue 36): Spanish and Russian here.
  ['sofa', 'couch', 'settee', 'diván', 'диван'],
  ['jumper', 'sweater', 'pullover'],
]

const synonymOf = new Map(FAKE_SYNONYMS.flatMap((group) => group.map((word) => [word, `~${group[0]}`])))

const requestBody = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(z.string())]),
  encoding_format: z.string().optional(),
})

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A crude English stem: enough for "deliveries" and "delivery" to share a feature. */
function stem(word: string): string {
  for (const suffix of ['ing', 'ies', 'ied', 'es', 'ed', 'ly', 's', 'y', 'e']) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length)
  }
  return word
}

/** The fake's vector of a text (deterministic; length 1, or all zeros for a text without words). */
export function fakeEmbedding(text: string, dims = FAKE_EMBEDDING_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0)
  const add = (feature: string, weight: number) => {
    const h = hash(feature)
    vector[h % dims] += h & 0x80000000 ? -weight : weight
  }
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const root = stem(word)
    const synonym = synonymOf.get(word) ?? synonymOf.get(root)
    if (synonym) {
      add(synonym, 2)
      continue
    }
    add(`w:${root}`, 1)
    const padded = `<${root}>`
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5)
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0))
  return norm === 0 ? vector : vector.map((value) => value / norm)
}

export type EmbeddingFake = {
  /** Base URL ending in /v1, as clients expect it. */
  url: string
  /** Every request's inputs, in order (a request's texts as one array). */
  requests: { model: string; input: string[]; authorization?: string }[]
  /** From now on, answer every request with this HTTP status (OpenAI's error shape); undefined: answer normally. */
  failWith(status: number | undefined): void
  /** Resets the connection of the next `count` requests instead of answering (a kept-alive socket closed). */
  resetNext(count: number): void
  close(): Promise<void>
}

export type EmbeddingFakeOptions = {
  port?: number
  /**
   * The vectors of a request's texts, in order; default: fakeEmbedding's. The eval passes a real model here
   * (bench/knowledge/use-embedding-server.ts) to serve it over the same protocol.
   */
  embed?: (texts: string[]) => Promise<number[][]>
}

export async function startEmbeddingFake(options: EmbeddingFakeOptions = {}): Promise<EmbeddingFake> {
  const embed =
    options.embed ?? ((texts: string[]) => Promise.resolve(texts.map((text) => fakeEmbedding(text))))
  const requests: EmbeddingFake['requests'] = []
  let failure: number | undefined
  let resets = 0
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
      let parsed: z.infer<typeof requestBody>
      try {
        parsed = requestBody.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      } catch {
        return send(400, { error: { message: 'Invalid request body', type: 'invalid_request_error' } })
      }
      const input = typeof parsed.input === 'string' ? [parsed.input] : parsed.input
      requests.push({ model: parsed.model, input, authorization: req.headers.authorization })
      if (resets > 0) {
        resets--
        return req.socket.resetAndDestroy()
      }
      if (failure !== undefined) {
        return send(failure, { error: { message: 'The fake is failing on purpose', type: 'server_error' } })
      }
      const tokens = input.reduce((sum, text) => sum + (text.match(/\S+/g)?.length ?? 0), 0)
      embed(input).then(
        (vectors) =>
          send(200, {
            object: 'list',
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
            model: parsed.model,
            usage: { prompt_tokens: tokens, total_tokens: tokens },
          }),
        (error: unknown) => send(500, { error: { message: String(error), type: 'server_error' } }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The fake is not listening on TCP')
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    failWith(status) {
      failure = status
    },
    resetNext(count) {
      resets = count
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}
