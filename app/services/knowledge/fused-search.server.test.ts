import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { knowledgePassages } from '~/db/schema'
import { createEmbeddingClient, EMBEDDING_BATCH } from '~/integrations/llm/embeddings.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { createLogger } from '~/utils/logger.server'
import {
  startEmbeddingFake,
  FAKE_EMBEDDING_DIMS,
  type EmbeddingFake,
} from '../../../tests/fakes/embedding-server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { addTestShop } from '../../../tests/setup/knowledge'
import { groundQuestion, type AgentKnowledgeSettings } from './agent-knowledge.server'
import type { KnowledgeEmbeddings } from './embeddings.server'
import { searchWithVectors } from './fused-search.server'
import type { KnowledgeJobData } from './knowledge-queue.server'
import { processKnowledgeSource } from './process-source.server'
import { searchPassages } from './search.server'
import { searchKnowledge } from '~/services/agents/knowledge-search.server'
import { rankByVector } from './vector-search.server'
import {
  createKnowledgeSource,
  deleteKnowledgeSource,
  refreshKnowledgeSource,
  updateKnowledgeSource,
} from './sources.server'

// The optional embedding path (docs/decisions/043) against the deterministic fake embedding server: processing
// stores vectors, the search fuses them with the keyword ranking, and the endpoint failing changes nothing but that.

const getDb = withTestDatabase()
const API_KEY = 'sk-embedding-test-secret'
let fake: EmbeddingFake
let logs: string[]
beforeAll(async () => {
  fake = await startEmbeddingFake()
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.failWith(undefined)
  logs = []
})

function embeddingsAt(baseUrl: string): KnowledgeEmbeddings {
  return {
    client: createEmbeddingClient({ baseUrl, apiKey: API_KEY, model: 'fake-embed', timeoutMs: 5_000 }),
    minSimilarity: 0.3,
    logger: createLogger({ level: 'warn', sink: (line) => logs.push(line) }),
  }
}
const embeddings = () => embeddingsAt(fake.url)

/** Stores a source and works its job (the queue itself is tested elsewhere), with the embedding model or without. */
async function process(scope: OrganizationScope, sent: KnowledgeJobData[], withEmbeddings = true) {
  const deps = {
    db: scope.db,
    logger: createLogger({ level: 'warn', sink: (line) => logs.push(line) }),
    web: {},
    embeddings: withEmbeddings ? embeddings() : undefined,
  }
  const outcomes = []
  while (sent.length) outcomes.push(await processKnowledgeSource(deps, sent.shift()!))
  return outcomes
}

async function addFaq(scope: OrganizationScope, question: string, answer: string, withEmbeddings = true) {
  const sent: KnowledgeJobData[] = []
  const source = await createKnowledgeSource(
    scope,
    { kind: 'faq', question, answer },
    { jobs: async (_tx, job) => void sent.push(job) },
  )
  expect(await process(scope, sent, withEmbeddings)).toEqual(['ready'])
  return source
}

const passagesOf = (scope: OrganizationScope, sourceId: string) =>
  scope.db.select().from(knowledgePassages).where(eq(knowledgePassages.sourceId, sourceId))

/** A shop whose couch FAQ shares no word with "Is there a settee?" (the fake's synonyms: sofa, couch, settee). */
async function shopWithCouch(scope: OrganizationScope) {
  const db = scope.db
  await addTestShop(db, scope.organizationId) // indexed without vectors: keyword search only for these
  return addFaq(
    scope,
    'Can I rest on a couch while trying clothes?',
    'Yes: a comfortable sofa waits by the fitting rooms.',
  )
}

const QUESTION = 'Is there a settee?'

describe('processing with an embedding model', () => {
  it('stores each passage with its vector, batched', async () => {
    const scope = await newOwnerScope(getDb())
    const source = await addFaq(scope, 'Do you deliver on Sundays?', 'No, parcels go out Monday to Friday.')
    const [passage] = await passagesOf(scope, source.id)
    expect(passage.embedding).toHaveLength(FAKE_EMBEDDING_DIMS)
    const request = fake.requests.find((r) => r.input[0]?.startsWith('Do you deliver on Sundays?'))
    expect(request?.input).toEqual(['Do you deliver on Sundays?\nNo, parcels go out Monday to Friday.'])
    expect(request?.authorization).toBe(`Bearer ${API_KEY}`)

    const sections = Array.from(
      { length: EMBEDDING_BATCH + 6 },
      (_, i) => `## Topic ${i}\n\n${'Words about it. '.repeat(30)}`,
    )
    const sent: KnowledgeJobData[] = []
    const before = fake.requests.length
    const text = await createKnowledgeSource(
      scope,
      { kind: 'text', title: 'Handbook', text: sections.join('\n\n') },
      { jobs: async (_tx, job) => void sent.push(job) },
    )
    expect(await process(scope, sent)).toEqual(['ready'])
    const passages = await passagesOf(scope, text.id)
    expect(passages.length).toBeGreaterThan(EMBEDDING_BATCH)
    expect(passages.every((p) => p.embedding?.length === FAKE_EMBEDDING_DIMS)).toBe(true)
    const sizes = fake.requests.slice(before).map((r) => r.input.length)
    expect(sizes).toEqual([EMBEDDING_BATCH, passages.length - EMBEDDING_BATCH])
  })

  it('an endpoint failure does not fail the source: no vectors, keyword search finds it, a re-fetch embeds it', async () => {
    const scope = await newOwnerScope(getDb())
    fake.failWith(500)
    const source = await addFaq(scope, 'Do you deliver on Sundays?', 'No, parcels go out Monday to Friday.')
    const [passage] = await passagesOf(scope, source.id)
    expect(passage.embedding).toBeNull()
    const hits = await searchPassages(scope.db, {
      organizationId: scope.organizationId,
      query: 'sunday delivery',
      limit: 5,
    })
    expect(hits.map((h) => h.sourceId)).toEqual([source.id])
    expect(logs.some((line) => line.includes('knowledge passages not embedded'))).toBe(true)
    expect(logs.join('\n')).not.toContain(API_KEY)

    fake.failWith(undefined)
    const sent: KnowledgeJobData[] = []
    await refreshKnowledgeSource(scope, source.id, { jobs: async (_tx, job) => void sent.push(job) })
    expect(await process(scope, sent)).toEqual(['ready'])
    const [again] = await passagesOf(scope, source.id)
    expect(again.embedding).toHaveLength(FAKE_EMBEDDING_DIMS)
  })
})

describe('searchWithVectors', () => {
  it('finds through the vectors an FAQ that shares no word with the question', async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    const search = { organizationId: scope.organizationId, query: QUESTION, limit: 5 }
    expect((await searchPassages(scope.db, search)).map((h) => h.sourceId)).not.toContain(couch.id)
    const hits = await searchWithVectors(scope.db, search, embeddings())
    expect(hits[0]).toMatchObject({
      sourceId: couch.id,
      title: 'Can I rest on a couch while trying clothes?',
    })
    expect(hits[0].score).toBeGreaterThan(0.3)
    expect(hits[0].score).toBeLessThanOrEqual(1)
  })

  it('finds an English FAQ from a question in Spanish or Russian, as a multilingual model does (issue 36)', async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    for (const query of ['¿Tenéis un diván?', 'У вас есть диван?']) {
      const search = { organizationId: scope.organizationId, query, limit: 5 }
      expect(
        (await searchPassages(scope.db, search)).map((h) => h.sourceId),
        query,
      ).not.toContain(couch.id)
      expect((await searchWithVectors(scope.db, search, embeddings()))[0]?.sourceId, query).toBe(couch.id)
    }
  })

  it('without a model is the keyword search, scores and all', async () => {
    const scope = await newOwnerScope(getDb())
    await shopWithCouch(scope)
    const search = { organizationId: scope.organizationId, query: 'How much is shipping?', limit: 5 }
    expect(await searchWithVectors(scope.db, search)).toEqual(await searchPassages(scope.db, search))
  })

  it('keeps a keyword hit first when both rankings agree, showing the higher of its two scores', async () => {
    const scope = await newOwnerScope(getDb())
    await addTestShop(scope.db, scope.organizationId)
    const shipping = await addFaq(
      scope,
      'What does express shipping cost?',
      'Express shipping costs 9.90 EUR.',
    )
    const search = { organizationId: scope.organizationId, query: 'express shipping cost', limit: 5 }
    const keyword = await searchPassages(scope.db, search)
    const fused = await searchWithVectors(scope.db, search, embeddings())
    expect(keyword[0].sourceId).toBe(shipping.id)
    expect(fused[0].sourceId).toBe(shipping.id)
    expect(fused[0].score).toBeGreaterThanOrEqual(keyword[0].score)
  })

  it('answers with the keyword ranking alone when the endpoint fails or cannot be reached', async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    const search = {
      organizationId: scope.organizationId,
      query: 'How much is shipping? Is there a settee?',
      limit: 5,
    }
    const keyword = await searchPassages(scope.db, search)
    expect(keyword.length).toBeGreaterThan(0)
    fake.failWith(503)
    expect(await searchWithVectors(scope.db, search, embeddings())).toEqual(keyword)
    expect(await searchWithVectors(scope.db, search, embeddingsAt('http://127.0.0.1:9/v1'))).toEqual(keyword)
    expect(logs.filter((line) => line.includes('knowledge question not embedded'))).toHaveLength(2)
    expect(logs.join('\n')).not.toContain(API_KEY)
    fake.failWith(undefined)
    expect((await searchWithVectors(scope.db, search, embeddings())).map((h) => h.sourceId)).toContain(
      couch.id,
    )
  })

  it('sends a question again once when its connection is reset (a kept-alive socket the server closed)', async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    const search = { organizationId: scope.organizationId, query: QUESTION, limit: 5 }
    const before = fake.requests.length
    fake.resetNext(1)
    expect((await searchWithVectors(scope.db, search, embeddings()))[0].sourceId).toBe(couch.id)
    expect(fake.requests.length - before).toBe(2)
    expect(logs).toEqual([])
  })

  it("never returns another organization's passages, from the vectors or the cache", async () => {
    const db = getDb()
    const a = await newOwnerScope(db)
    const b = await newOwnerScope(db)
    const couchA = await shopWithCouch(a)
    const vectors = embeddings()
    // A's vectors are read into the cache first.
    expect(
      (
        await searchWithVectors(db, { organizationId: a.organizationId, query: QUESTION, limit: 5 }, vectors)
      )[0].sourceId,
    ).toBe(couchA.id)
    expect(
      await searchWithVectors(db, { organizationId: b.organizationId, query: QUESTION, limit: 5 }, vectors),
    ).toEqual([])
    const couchB = await addFaq(b, 'Is there a couch?', 'A sofa is in the lounge.')
    const hitsB = await searchWithVectors(
      db,
      { organizationId: b.organizationId, query: QUESTION, limit: 20 },
      vectors,
    )
    expect(hitsB.map((h) => h.sourceId)).toEqual([couchB.id])
    // B's agent naming A's source finds nothing.
    expect(
      await searchWithVectors(
        db,
        { organizationId: b.organizationId, query: QUESTION, limit: 5, sourceIds: [couchA.id] },
        vectors,
      ),
    ).toEqual([])
  })

  it('sees an edit, a new source and a deletion at once (the cache follows the knowledge)', async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    const vectors = embeddings()
    const search = { organizationId: scope.organizationId, query: QUESTION, limit: 5 }
    const [first] = await searchWithVectors(scope.db, search, vectors)
    expect(first.text).toBe('Yes: a comfortable sofa waits by the fitting rooms.')

    const sent: KnowledgeJobData[] = []
    const jobs = { jobs: async (_tx: unknown, job: KnowledgeJobData) => void sent.push(job) }
    await updateKnowledgeSource(
      scope,
      couch.id,
      { answer: 'Yes: two sofas wait by the fitting rooms.' },
      jobs,
    )
    expect(await process(scope, sent)).toEqual(['ready'])
    const [edited] = await searchWithVectors(scope.db, search, vectors)
    expect(edited).toMatchObject({ sourceId: couch.id, text: 'Yes: two sofas wait by the fitting rooms.' })
    expect(edited.passageId).not.toBe(first.passageId)

    await deleteKnowledgeSource(scope, couch.id)
    // The matrix itself is read again: the deleted passage is not among the vectors any more.
    const vector = (await vectors.client.embed([QUESTION]))[0]
    const nearest = await rankByVector(scope.db, {
      organizationId: scope.organizationId,
      vector,
      limit: 20,
      minSimilarity: -1,
    })
    expect(nearest.map((hit) => hit.passageId)).not.toContain(edited.passageId)
    expect((await searchWithVectors(scope.db, search, vectors)).map((h) => h.sourceId)).not.toContain(
      couch.id,
    )
    const settee = await addFaq(scope, 'Where can I wait?', 'A settee stands by the entrance.')
    const hits = await searchWithVectors(scope.db, search, vectors)
    expect(hits[0].sourceId).toBe(settee.id)
    expect(hits.map((h) => h.sourceId)).not.toContain(couch.id)
  })

  it("applies an agent's selection and minimum relevance to the vectors too", async () => {
    const scope = await newOwnerScope(getDb())
    const couch = await shopWithCouch(scope)
    const vectors = embeddings()
    const agent: AgentKnowledgeSettings = {
      organizationId: scope.organizationId,
      knowledgeMode: 'all',
      knowledgeSourceIds: [],
      knowledgePassages: 3,
      knowledgeMinRelevance: 0.2,
      knowledgeNoAnswerMessage: 'I do not know.',
    }
    // Keywords alone find nothing (the model would have only its instructions); the vectors ground the answer in the FAQ.
    expect(await groundQuestion(scope.db, agent, QUESTION)).toEqual({ kind: 'passages', hits: [] })
    const grounded = await groundQuestion(scope.db, agent, QUESTION, vectors)
    expect(grounded.kind === 'passages' && grounded.hits[0].sourceId).toBe(couch.id)
    expect(
      await groundQuestion(scope.db, { ...agent, knowledgeMinRelevance: 0.99 }, QUESTION, vectors),
    ).toEqual({
      kind: 'passages',
      hits: [],
    })
    const other = await addFaq(
      scope,
      'Do you sell gift cards?',
      'Gift cards from 10 EUR, in store and online.',
    )
    expect(
      await groundQuestion(
        scope.db,
        { ...agent, knowledgeMode: 'selected', knowledgeSourceIds: [other.id] },
        QUESTION,
        vectors,
      ),
    ).toEqual({ kind: 'passages', hits: [] })
    // The Try a question box and the API search through the same function.
    const tried = await searchKnowledge(scope, { query: QUESTION, limit: 5 }, vectors)
    expect(tried[0].sourceId).toBe(couch.id)
  })
})
