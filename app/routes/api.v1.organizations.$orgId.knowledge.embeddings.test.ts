import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knowledgePassages } from '~/db/schema'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import {
  startEmbeddingFake,
  FAKE_EMBEDDING_DIMS,
  type EmbeddingFake,
} from '../../tests/fakes/embedding-server'
import { uniqueEmail } from '../../tests/setup/identity'
import { waitFor } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import * as list from './api.v1.organizations.$orgId.knowledge'
import * as one from './api.v1.organizations.$orgId.knowledge.$sourceId'
import * as search from './api.v1.organizations.$orgId.knowledge.search'

// The Knowledge API with an embedding model configured (LLM_EMBEDDING_MODEL, docs/decisions/043), in the process as
// the server boots it: the in-process worker embeds the passages through the fake embedding server, and the search
// fuses the vectors with the keywords.
let runtime: Runtime
let fake: EmbeddingFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

const knowledge = '^/api/v1/organizations/(?<orgId>[^/]+)/knowledge'
beforeAll(async () => {
  fake = await startEmbeddingFake()
  http = await serveRoutes([
    [new RegExp(`${knowledge}$`), list],
    [new RegExp(`${knowledge}/search$`), search],
    [new RegExp(`${knowledge}/(?<sourceId>[^/]+)$`), one],
  ])
  booted = await bootRuntime('knowledge-embeddings', {
    PUBLIC_URL: http.url,
    LLM_BASE_URL: fake.url,
    LLM_API_KEY: 'sk-embeddings-api-test',
    LLM_EMBEDDING_MODEL: 'fake-embed',
    LLM_EMBEDDING_MIN_SIMILARITY: '0.3',
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await http.close()
  await fake.close()
})

type Envelope<T> = { success: boolean; data: T }

async function newTenant(name: string) {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name.toLowerCase()), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: `${name}'s shop` })
  const api = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${http.url}/api/v1/organizations/${org.id}${path}`, {
      method,
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Envelope<T> }
  }
  return { orgId: org.id, api }
}
type Tenant = Awaited<ReturnType<typeof newTenant>>

async function addFaq(tenant: Tenant, question: string, answer: string) {
  const created = await tenant.api<{ id: string }>('POST', '/knowledge', { kind: 'faq', question, answer })
  expect(created.status).toBe(201)
  const ready = await waitFor(
    async () => (await tenant.api<{ status: string }>('GET', `/knowledge/${created.body.data.id}`)).body.data,
    (source) => source.status !== 'processing',
    { timeoutMs: 20_000, intervalMs: 100 },
  )
  expect(ready.status).toBe('ready')
  return created.body.data.id
}

const searchFor = (tenant: Tenant, query: string) =>
  tenant.api<KnowledgeHit[]>('POST', '/knowledge/search', { query, limit: 5 })

describe('the knowledge API with an embedding model', () => {
  it("embeds the worker's passages and finds by meaning, in the caller's organization only", async () => {
    const ada = await newTenant('Ada')
    const bob = await newTenant('Bob')
    await addFaq(ada, 'How much does shipping cost?', 'Standard shipping costs 4.90 EUR.')
    const couch = await addFaq(ada, 'Can I rest on a couch?', 'Yes: a sofa waits by the fitting rooms.')
    const [passage] = await runtime.database.db
      .select()
      .from(knowledgePassages)
      .where(eq(knowledgePassages.sourceId, couch))
    expect(passage.embedding).toHaveLength(FAKE_EMBEDDING_DIMS)

    const found = await searchFor(ada, 'Is there a settee?')
    expect(found.status).toBe(200)
    expect(found.body.data[0]).toMatchObject({ sourceId: couch, title: 'Can I rest on a couch?' })
    expect(found.body.data[0].score).toBeGreaterThanOrEqual(0.3)

    // Bob's organization has no knowledge: nothing of Ada's, though her vectors are in the process's cache.
    expect((await searchFor(bob, 'Is there a settee?')).body.data).toEqual([])
    const bobs = await addFaq(bob, 'Do you have a settee?', 'A couch is in our lounge.')
    expect((await searchFor(bob, 'Is there a settee?')).body.data.map((hit) => hit.sourceId)).toEqual([bobs])
  })

  it('answers with keywords alone, without an error, while the embedding endpoint fails', async () => {
    const ada = await newTenant('Cleo')
    const shipping = await addFaq(ada, 'How much does shipping cost?', 'Standard shipping costs 4.90 EUR.')
    fake.failWith(500)
    try {
      const found = await searchFor(ada, 'what does shipping cost')
      expect(found.status).toBe(200)
      expect(found.body.data.map((hit) => hit.sourceId)).toEqual([shipping])
    } finally {
      fake.failWith(undefined)
    }
  })
})
