import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knowledgeSources } from '~/db/schema'
import { INVALID_ID_MESSAGE } from '~/lib/shared/input'
import {
  KNOWLEDGE_LIMITS,
  UNSUPPORTED_FILE_MESSAGE,
  URL_CREDENTIALS_MESSAGE,
  type KnowledgeHit,
} from '~/lib/knowledge/knowledge'
import { FILE_REQUIRED_MESSAGE, FILE_TOO_LARGE_MESSAGE } from '~/lib/knowledge/forms'
import type { Runtime } from '~/runtime/runtime.server'
import { updateAgent } from '~/services/agents/agents.server'
import { userForToken } from '~/services/auth/profile.server'
import { KNOWLEDGE_SOURCE_NOT_FOUND } from '~/services/knowledge/sources.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { waitFor } from '../../tests/setup/pipeline'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { newTestAgent } from '../../tests/setup/tenant'
import * as list from './api.v1.organizations.$orgId.knowledge'
import * as one from './api.v1.organizations.$orgId.knowledge.$sourceId'
import * as refresh from './api.v1.organizations.$orgId.knowledge.$sourceId.refresh'
import * as search from './api.v1.organizations.$orgId.knowledge.search'
import * as words from './api.v1.organizations.$orgId.knowledge.words'

// The Knowledge API over real HTTP, in the process as the server boots it (database, pg-boss, the in-process
// worker that processes sources); the users are the Auth emulator's, with its ID tokens.
let runtime: Runtime
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

const knowledge = '^/api/v1/organizations/(?<orgId>[^/]+)/knowledge'
beforeAll(async () => {
  http = await serveRoutes([
    [new RegExp(`${knowledge}$`), list],
    // The order Remix's ranking gives: the static `search` before `$sourceId` (e2e checks the built app).
    [new RegExp(`${knowledge}/search$`), search],
    [new RegExp(`${knowledge}/words$`), words],
    [new RegExp(`${knowledge}/(?<sourceId>[^/]+)$`), one],
    [new RegExp(`${knowledge}/(?<sourceId>[^/]+)/refresh$`), refresh],
  ])
  booted = await bootRuntime('knowledge-api', { PUBLIC_URL: http.url })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await http.close()
})

type Envelope<T> = {
  success: boolean
  data: T
  message: string | null
  code?: string
  errors?: Record<string, string[]>
}
type Source = {
  id: string
  kind: string
  title: string
  status: string
  failureReason: string | null
  question?: string | null
  body?: string | null
  fileName: string | null
  url: string | null
  crawl: boolean
  maxPages: number
  sizeBytes: number
  passageCount: number
}
type Call = { body?: unknown; form?: FormData }

/** A request to the product API as `token`'s holder (none: unauthenticated), answered with its JSON envelope. */
async function call<T = unknown>(
  token: string | undefined,
  method: string,
  path: string,
  options: Call = {},
) {
  const { body, form } = options
  const response = await fetch(`${http.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

/** A user of the Auth emulator who owns an organization of their own. */
async function newTenant(name = 'Ada') {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail(name.toLowerCase()), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: `${name}'s shop` })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  return {
    token: idToken,
    scope,
    orgId: org.id,
    api: <T = unknown>(method: string, path: string, options?: Call) =>
      call<T>(idToken, method, `/organizations/${org.id}${path}`, options),
  }
}
type Tenant = Awaited<ReturnType<typeof newTenant>>

const FAQ = {
  kind: 'faq',
  question: 'Do you ship to Austria?',
  answer: 'Yes, we ship to Austria within three working days for 6.90 EUR.',
}

async function addFaq(tenant: Tenant, faq: Partial<typeof FAQ> = {}) {
  const created = await tenant.api<Source>('POST', '/knowledge', { body: { ...FAQ, ...faq } })
  expect(created.status).toBe(201)
  return created.body.data
}

/** Until the worker has processed the source (ready or failed). */
const processed = (tenant: Tenant, id: string) =>
  waitFor(
    async () => (await tenant.api<Source>('GET', `/knowledge/${id}`)).body.data,
    (source) => source.status !== 'processing',
    { timeoutMs: 20_000, intervalMs: 100 },
  )

const upload = (parts: { file?: Blob; name?: string; title?: string }) => {
  const form = new FormData()
  if (parts.file) form.append('file', parts.file, parts.name ?? 'notes.txt')
  if (parts.title !== undefined) form.append('title', parts.title)
  return form
}

const rowOf = async (id: string) =>
  (await runtime.database.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, id)))[0]

describe('POST and GET /organizations/{orgId}/knowledge', () => {
  it('adds an FAQ, a text and a web page (201, processing) and lists them newest first', async () => {
    const ada = await newTenant()
    const faq = await ada.api<Source>('POST', '/knowledge', { body: FAQ })
    expect(faq.status).toBe(201)
    expect(faq.body).toMatchObject({
      success: true,
      data: {
        kind: 'faq',
        title: FAQ.question,
        question: FAQ.question,
        body: FAQ.answer,
        status: 'processing',
      },
    })
    const text = await ada.api<Source>('POST', '/knowledge', {
      body: { kind: 'text', title: 'Returns', text: 'Unworn items come back within 30 days.' },
    })
    expect(text.status).toBe(201)
    const page = await ada.api<Source>('POST', '/knowledge', {
      body: { kind: 'url', url: 'https://shop.example/help', crawl: true, maxPages: 5 },
    })
    expect(page.status).toBe(201)
    expect(page.body.data).toMatchObject({
      kind: 'url',
      url: 'https://shop.example/help',
      crawl: true,
      maxPages: 5,
      title: 'shop.example/help',
    })

    const listed = await ada.api<Source[]>('GET', '/knowledge')
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((s) => s.id)).toEqual([page, text, faq].map((s) => s.body.data.id))
    // The list tells what each source is and how its processing went, not what it holds.
    expect(listed.body.data[2]).not.toHaveProperty('body')

    expect(await processed(ada, faq.body.data.id)).toMatchObject({ status: 'ready', passageCount: 1 })
  })

  it('uploads a file as multipart/form-data, with or without a title; refuses an empty, missing or too large one', async () => {
    const ada = await newTenant()
    const notes = '# Opening hours\n\nWe open at nine on weekdays.'
    const titled = await ada.api<Source>('POST', '/knowledge', {
      form: upload({ file: new Blob([notes]), name: 'hours.md', title: 'Opening hours' }),
    })
    expect(titled.status).toBe(201)
    expect(titled.body.data).toMatchObject({
      kind: 'file',
      title: 'Opening hours',
      fileName: 'hours.md',
      sizeBytes: Buffer.byteLength(notes),
      status: 'processing',
    })
    const untitled = await ada.api<Source>('POST', '/knowledge', {
      form: upload({ file: new Blob([notes]), name: 'hours.md', title: '' }),
    })
    expect(untitled.body.data.title).toBe('hours.md')

    const empty = await ada.api('POST', '/knowledge', { form: upload({ file: new Blob([]) }) })
    expect([empty.status, empty.body.code, empty.body.message]).toEqual([
      400,
      'VALIDATION_ERROR',
      'The file is empty',
    ])
    const missing = await ada.api('POST', '/knowledge', { form: upload({ title: 'Nothing' }) })
    expect([missing.status, missing.body.message, missing.body.errors]).toEqual([
      400,
      FILE_REQUIRED_MESSAGE,
      { file: [FILE_REQUIRED_MESSAGE] },
    ])
    const large = await ada.api('POST', '/knowledge', {
      form: upload({ file: new Blob([new Uint8Array(KNOWLEDGE_LIMITS.fileBytes + 1)]), name: 'big.pdf' }),
    })
    expect([large.status, large.body.code, large.body.message]).toEqual([
      413,
      'PAYLOAD_TOO_LARGE',
      FILE_TOO_LARGE_MESSAGE,
    ])
    const all = await ada.api<Source[]>('GET', '/knowledge')
    expect(all.body.data).toHaveLength(2)
  })

  it('takes a file whose name has = or ; in it (issue 31)', async () => {
    const ada = await newTenant()
    for (const name of ['a=b.txt', 'prices; 2025.md', 'x=1;y=2.txt']) {
      const added = await ada.api<Source>('POST', '/knowledge', {
        form: upload({ file: new Blob(['We open at nine.']), name }),
      })
      expect([added.status, added.body.data?.fileName], name).toEqual([201, name])
    }
  })

  it('refuses a file that is not a PDF, Word, Markdown or text file, by its name or by its content (issue 31)', async () => {
    const ada = await newTenant()
    const html = '<!doctype html><html><body><h1>Not a PDF</h1></body></html>'
    const cases: [string, BlobPart][] = [
      ['evil.exe', 'MZ this is text, but named as a program'],
      ['evil.exe', new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])],
      ['page.html', html],
      ['notes', 'no extension at all'],
      ['fake.pdf', html],
      ['fake.docx', html],
      ['binary.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
    ]
    for (const [name, content] of cases) {
      const refused = await ada.api('POST', '/knowledge', {
        form: upload({ file: new Blob([content]), name }),
      })
      expect([refused.status, refused.body.code, refused.body.message], name).toEqual([
        400,
        'VALIDATION_ERROR',
        UNSUPPORTED_FILE_MESSAGE,
      ])
    }
    expect((await ada.api<Source[]>('GET', '/knowledge')).body.data).toEqual([])
  })

  it('refuses a body outside the contract with a 400 naming the field', async () => {
    const ada = await newTenant()
    const cases: [unknown, string, string][] = [
      [{ kind: 'faq', question: '  ', answer: 'A' }, 'question', 'Question is required'],
      [{ kind: 'faq', question: 'Q' }, 'answer', 'Answer is required'],
      [{ kind: 'text', title: 'T', text: '' }, 'text', 'Text is required'],
      [{ kind: 'url', url: 'ftp://shop.example' }, 'url', 'Enter a web address starting with https://'],
      [{ kind: 'url', url: 'http://user:pass@shop.example/' }, 'url', URL_CREDENTIALS_MESSAGE],
      [{ kind: 'url', url: 'https://owner@shop.example/help' }, 'url', URL_CREDENTIALS_MESSAGE],
      [{ kind: 'url', url: 'https://:secret@shop.example' }, 'url', URL_CREDENTIALS_MESSAGE],
      [
        { kind: 'url', url: 'https://shop.example', crawl: true, maxPages: 51 },
        'maxPages',
        'Pages must be at most 50',
      ],
    ]
    for (const [body, field, message] of cases) {
      const { status, body: answer } = await ada.api('POST', '/knowledge', { body })
      expect([status, answer.message, answer.errors?.[field]]).toEqual([400, message, [message]])
    }
    const kind = await ada.api('POST', '/knowledge', { body: { kind: 'pdf' } })
    expect([kind.status, kind.body.message]).toEqual([
      400,
      'Kind must be faq, text or url (files are uploaded as multipart/form-data)',
    ])
    expect((await ada.api<Source[]>('GET', '/knowledge')).body.data).toEqual([])

    const page = await ada.api<Source>('POST', '/knowledge', {
      body: { kind: 'url', url: 'https://shop.example/' },
    })
    const withPassword = await ada.api('PATCH', `/knowledge/${page.body.data.id}`, {
      body: { url: 'https://user:pass@shop.example/' },
    })
    expect([withPassword.status, withPassword.body.errors]).toEqual([400, { url: [URL_CREDENTIALS_MESSAGE] }])
    const kept = await ada.api<Source>('GET', `/knowledge/${page.body.data.id}`)
    expect(kept.body.data.url).toBe('https://shop.example/')
  })
})

describe('GET, PATCH and DELETE /organizations/{orgId}/knowledge/{sourceId}, POST .../refresh', () => {
  it('shows, changes (processed again), re-fetches (202) and deletes a source', async () => {
    const ada = await newTenant()
    const faq = await addFaq(ada)
    expect(await processed(ada, faq.id)).toMatchObject({ status: 'ready' })

    const shown = await ada.api<Source>('GET', `/knowledge/${faq.id}`)
    expect(shown.status).toBe(200)
    expect(shown.body.data).toMatchObject({ id: faq.id, question: FAQ.question, body: FAQ.answer })

    const answer = 'Yes, to Austria in two working days, free over 50 EUR.'
    const changed = await ada.api<Source>('PATCH', `/knowledge/${faq.id}`, { body: { answer } })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({ body: answer, question: FAQ.question, status: 'processing' })
    const revision = (await rowOf(faq.id)).revision

    const again = await ada.api<Source>('POST', `/knowledge/${faq.id}/refresh`)
    expect([again.status, again.body.data.status]).toEqual([202, 'processing'])
    expect((await rowOf(faq.id)).revision).toBe(revision + 1)

    const foreign = await ada.api('PATCH', `/knowledge/${faq.id}`, { body: { url: 'https://shop.example' } })
    expect([foreign.status, foreign.body.message]).toEqual([400, 'A faq source has no url'])
    const blank = await ada.api('PATCH', `/knowledge/${faq.id}`, { body: { question: '' } })
    expect([blank.status, blank.body.message]).toEqual([400, 'Question is required'])
    const unknown = await ada.api('PATCH', `/knowledge/${faq.id}`, { body: { colour: 'red' } })
    expect(unknown.status).toBe(400)

    const deleted = await ada.api('DELETE', `/knowledge/${faq.id}`)
    expect([deleted.status, deleted.body.data, deleted.body.message]).toEqual([
      200,
      null,
      'Knowledge source deleted',
    ])
    const gone = await ada.api('GET', `/knowledge/${faq.id}`)
    expect([gone.status, gone.body.code, gone.body.message]).toEqual([
      404,
      'NOT_FOUND',
      KNOWLEDGE_SOURCE_NOT_FOUND,
    ])
    expect((await ada.api('DELETE', `/knowledge/${faq.id}`)).status).toBe(404)
    expect(await rowOf(faq.id)).toBeUndefined()
  })

  it('answers 404 for an unknown id and 400 for one that is not an id', async () => {
    const ada = await newTenant()
    const id = randomUUID()
    for (const [method, path] of [
      ['GET', `/knowledge/${id}`],
      ['PATCH', `/knowledge/${id}`],
      ['DELETE', `/knowledge/${id}`],
      ['POST', `/knowledge/${id}/refresh`],
    ] as const) {
      const { status, body } = await ada.api(method, path, method === 'PATCH' ? { body: { title: 'T' } } : {})
      expect([method, status, body.message]).toEqual([method, 404, KNOWLEDGE_SOURCE_NOT_FOUND])
    }
    for (const [method, path] of [
      ['GET', '/knowledge/not-a-uuid'],
      ['POST', '/knowledge/not-a-uuid/refresh'],
    ] as const) {
      const { status, body } = await ada.api(method, path)
      expect([path, status, body.message]).toEqual([path, 400, INVALID_ID_MESSAGE])
    }
  })
})

describe('POST /organizations/{orgId}/knowledge/search', () => {
  it('finds the passages that answer a question, scored 0-1, best first', async () => {
    const ada = await newTenant()
    const faq = await addFaq(ada)
    const other = await addFaq(ada, {
      question: 'When are you open?',
      answer: 'From nine to six, Monday to Friday.',
    })
    await processed(ada, faq.id)
    await processed(ada, other.id)

    const found = await ada.api<KnowledgeHit[]>('POST', '/knowledge/search', {
      body: { query: 'shipping to austria', limit: 1 },
    })
    expect(found.status).toBe(200)
    expect(found.body.data).toHaveLength(1)
    const [hit] = found.body.data
    expect(hit).toMatchObject({ sourceId: faq.id, title: FAQ.question, headingPath: [] })
    expect(hit.text).toContain('6.90 EUR')
    expect(hit.score).toBeGreaterThan(0)
    expect(hit.score).toBeLessThanOrEqual(1)

    // An agent's search is of the knowledge it answers from.
    const agent = await newTestAgent(ada.scope)
    const byAgent = (query: string) =>
      ada.api<KnowledgeHit[]>('POST', '/knowledge/search', { body: { query, agentId: agent.id } })
    expect((await byAgent('when are you open')).body.data[0]?.sourceId).toBe(other.id)
    await updateAgent(ada.scope, agent.id, { knowledgeMode: 'selected', knowledgeSourceIds: [faq.id] })
    expect((await byAgent('when are you open')).body.data.map((h) => h.sourceId)).not.toContain(other.id)
    expect((await byAgent('shipping to austria')).body.data[0]?.sourceId).toBe(faq.id)
    await updateAgent(ada.scope, agent.id, { knowledgeMode: 'none' })
    expect((await byAgent('shipping to austria')).body).toMatchObject({ success: true, data: [] })
    const nothing = await ada.api<KnowledgeHit[]>('POST', '/knowledge/search', {
      body: { query: 'quantum entanglement' },
    })
    expect([nothing.status, nothing.body.data]).toEqual([200, []])
  })

  it('refuses a search outside the contract with a 400', async () => {
    const ada = await newTenant()
    const cases: [unknown, string][] = [
      [{}, 'Query is required'],
      [{ query: '   ' }, 'Query is required'],
      [{ query: 'hi', limit: 21 }, 'Limit must be at most 20'],
      [{ query: 'hi', agentId: 'agent-1' }, INVALID_ID_MESSAGE],
    ]
    for (const [body, message] of cases) {
      const { status, body: answer } = await ada.api('POST', '/knowledge/search', { body })
      expect([status, answer.message]).toEqual([400, message])
    }
    const unknownAgent = await ada.api('POST', '/knowledge/search', {
      body: { query: 'hi', agentId: randomUUID() },
    })
    expect(unknownAgent.status).toBe(404)
  })
})

describe('GET and PUT /organizations/{orgId}/knowledge/words (issue 36)', () => {
  type Words = { groups: string[][] }
  it("replaces the organization's groups, trimmed; refuses a group of one word or a malformed body, changing nothing", async () => {
    const ada = await newTenant('Ada')
    expect((await ada.api<Words>('GET', '/knowledge/words')).body.data).toEqual({ groups: [] })
    const saved = await ada.api<Words>('PUT', '/knowledge/words', {
      body: {
        groups: [
          [' móvil ', 'celular'],
          ['postage', 'delivery'],
        ],
      },
    })
    expect([saved.status, saved.body.data]).toEqual([
      200,
      {
        groups: [
          ['móvil', 'celular'],
          ['postage', 'delivery'],
        ],
      },
    ])
    for (const body of [
      { groups: [['refund']] },
      { groups: 'refund, money back' },
      { groups: [['a', '']] },
      { groups: [['a', 'b\u0000c']] },
      {},
    ]) {
      const refused = await ada.api('PUT', '/knowledge/words', { body })
      expect([JSON.stringify(body), refused.status, refused.body.code]).toEqual([
        JSON.stringify(body),
        400,
        'VALIDATION_ERROR',
      ])
    }
    expect((await ada.api<Words>('GET', '/knowledge/words')).body.data.groups).toHaveLength(2)

    // Bob is not in Ada's organization: 404, and her words stay hers.
    const bob = await newTenant('Bob')
    for (const method of ['GET', 'PUT']) {
      const options = method === 'PUT' ? { body: { groups: [['a', 'b']] } } : undefined
      const path = `/organizations/${ada.orgId}/knowledge/words`
      const { status, body } = await call(bob.token, method, path, options)
      expect([method, status, body.code]).toEqual([method, 404, 'NOT_FOUND'])
    }
    expect((await bob.api<Words>('GET', '/knowledge/words')).body.data).toEqual({ groups: [] })
    expect((await ada.api<Words>('GET', '/knowledge/words')).body.data.groups[0]).toEqual([
      'móvil',
      'celular',
    ])
  })
})

describe('tenant isolation and authentication', () => {
  it("answers 404 to a member of another organization for every endpoint and never shows or changes the owner's", async () => {
    const ada = await newTenant('Ada')
    const bob = await newTenant('Bob')
    const faq = await addFaq(ada)
    await processed(ada, faq.id)
    const adaAgent = await newTestAgent(ada.scope)
    const before = await rowOf(faq.id)

    const onSource: [string, string, Call?][] = [
      ['GET', `/knowledge/${faq.id}`],
      ['PATCH', `/knowledge/${faq.id}`, { body: { answer: 'from Bob' } }],
      ['POST', `/knowledge/${faq.id}/refresh`],
      ['DELETE', `/knowledge/${faq.id}`],
    ]
    // Under Bob's own organization: Ada's source and agent are not there.
    for (const [method, path, options] of [
      ...onSource,
      ['POST', '/knowledge/search', { body: { query: 'austria', agentId: adaAgent.id } }] as const,
    ]) {
      const { status, body } = await bob.api(method, path, options)
      expect([method, path, status, body.code]).toEqual([method, path, 404, 'NOT_FOUND'])
    }
    // Under Ada's organization, which Bob is not in: the organization is not there (nor its list, nor search).
    for (const [method, path, options] of [
      ...onSource,
      ['GET', '/knowledge'],
      ['POST', '/knowledge', { body: FAQ }],
      ['POST', '/knowledge', { form: upload({ file: new Blob(['x']) }) }],
      ['POST', '/knowledge/search', { body: { query: 'austria' } }],
    ] as [string, string, Call?][]) {
      const { status, body } = await call(bob.token, method, `/organizations/${ada.orgId}${path}`, options)
      expect([method, path, status, body.code, body.data]).toEqual([method, path, 404, 'NOT_FOUND', null])
    }
    // Bob's own list and search show nothing of Ada's.
    expect((await bob.api<Source[]>('GET', '/knowledge')).body.data).toEqual([])
    const searched = await bob.api<KnowledgeHit[]>('POST', '/knowledge/search', {
      body: { query: 'ship austria' },
    })
    expect([searched.status, searched.body.data]).toEqual([200, []])

    expect(await rowOf(faq.id)).toEqual(before)
    expect((await ada.api<Source[]>('GET', '/knowledge')).body.data.map((s) => s.id)).toEqual([faq.id])
  })

  it('refuses a caller without a valid token on every endpoint', async () => {
    const ada = await newTenant()
    const id = randomUUID()
    const paths: [string, string][] = [
      ['GET', '/knowledge'],
      ['POST', '/knowledge'],
      ['GET', `/knowledge/${id}`],
      ['PATCH', `/knowledge/${id}`],
      ['DELETE', `/knowledge/${id}`],
      ['POST', `/knowledge/${id}/refresh`],
      ['POST', '/knowledge/search'],
    ]
    for (const [method, path] of paths) {
      const url = `/organizations/${ada.orgId}${path}`
      const options = method === 'POST' || method === 'PATCH' ? { body: { query: 'hi' } } : {}
      const missing = await call(undefined, method, url, options)
      expect([path, missing.status, missing.body.code]).toEqual([path, 403, 'AUTH_TOKEN_MISSING'])
      const forged = await call('not-a-token', method, url, options)
      expect([path, forged.status, forged.body.code]).toEqual([path, 401, 'AUTH_TOKEN_INVALID'])
    }
  })
})
