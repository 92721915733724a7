import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agents } from '~/db/schema'
import { AGENT_KNOWLEDGE_TEXTS } from '~/lib/agents/knowledge'
import { AGENT_KNOWLEDGE_DEFAULTS, NO_ANSWER } from '~/lib/knowledge/knowledge'
import type { Runtime } from '~/runtime/runtime.server'
import { userForToken } from '~/services/auth/profile.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { startOpenAiFake, type OpenAiFake } from '../../tests/fakes/openai-server'
import { uniqueEmail } from '../../tests/setup/identity'
import { addTestShop } from '../../tests/setup/knowledge'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import * as list from './api.v1.organizations.$orgId.agents'
import * as one from './api.v1.organizations.$orgId.agents.$agentId'
import * as run from './api.v1.organizations.$orgId.agents.$agentId.run'

// The agents API's knowledge fields (issue #18) over real HTTP, in the process as the server boots it; the users
// are the Auth emulator's, the model is the OpenAI-compatible fake.
let runtime: Runtime
let model: OpenAiFake
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

const agentsPath = '^/api/v1/organizations/(?<orgId>[^/]+)/agents'
beforeAll(async () => {
  ;[model, http] = await Promise.all([
    startOpenAiFake(),
    serveRoutes([
      [new RegExp(`${agentsPath}$`), list],
      [new RegExp(`${agentsPath}/(?<agentId>[^/]+)$`), one],
      [new RegExp(`${agentsPath}/(?<agentId>[^/]+)/run$`), run],
    ]),
  ])
  booted = await bootRuntime('agents-api', {
    PUBLIC_URL: http.url,
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'sk-test',
  })
  runtime = booted.runtime
})
afterAll(async () => {
  await booted.close()
  await Promise.all([model.close(), http.close()])
})

type Envelope<T> = { success: boolean; data: T; message: string | null; errors?: Record<string, string[]> }
type Agent = {
  id: string
  updatedAt: string
  knowledgeMode: string
  knowledgeSourceIds: string[]
  knowledgePassages: number
  knowledgeMinRelevance: number
  knowledgeNoAnswerMessage: string
}

/** A user of the Auth emulator who owns an organization of their own, and calls below it. */
async function newTenant() {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail('ada'), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const org = await createOrganization({ db, userId: user.id, name: 'Shop' })
  const api = async <T = Agent>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${http.url}/api/v1/organizations/${org.id}/agents${path}`, {
      method,
      headers: {
        authorization: `Bearer ${idToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Envelope<T> }
  }
  return { orgId: org.id, api }
}

const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Support Bot',
  readableId: `bot-${randomUUID().slice(0, 8)}`,
  systemPrompt: 'You are a helpful support agent.',
  ...overrides,
})

describe("an agent's knowledge through the API", () => {
  it('a new agent answers from all of the knowledge; one stored before the knowledge fields from none', async () => {
    const { orgId, api } = await newTenant()
    const created = await api('POST', '', valid())
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject(AGENT_KNOWLEDGE_DEFAULTS)
    expect(created.body.data.knowledgeMode).toBe('all')

    const [old] = await runtime.database.db
      .insert(agents)
      .values({
        organizationId: orgId,
        readableId: 'before-knowledge',
        name: 'Old agent',
        modelType: 'medium',
        creativityLevel: 0.7,
        systemPrompt: 'You are an old agent.',
      })
      .returning({ id: agents.id })
    expect((await api('GET', `/${old.id}`)).body.data).toMatchObject({
      knowledgeMode: 'none',
      knowledgeSourceIds: [],
    })
  })

  it('refuses each wrong field with a 400 that says why, on create and on PATCH, and changes nothing', async () => {
    const { api } = await newTenant()
    const agent = (await api('POST', '', valid())).body.data
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ knowledgeMode: 'some' }, 'knowledgeMode', 'Answer from must be one of: all, selected, none'],
      [{ knowledgePassages: 0 }, 'knowledgePassages', 'Passages must be between 1 and 10'],
      [{ knowledgePassages: 11 }, 'knowledgePassages', 'Passages must be between 1 and 10'],
      [{ knowledgePassages: 'five' }, 'knowledgePassages', 'Passages must be between 1 and 10'],
      [{ knowledgeMinRelevance: 1.01 }, 'knowledgeMinRelevance', 'Minimum relevance must be between 0 and 1'],
      [{ knowledgeMinRelevance: -1 }, 'knowledgeMinRelevance', 'Minimum relevance must be between 0 and 1'],
      [{ knowledgeSourceIds: ['not-an-id'] }, 'knowledgeSourceIds.0', AGENT_KNOWLEDGE_TEXTS.sourceIdInvalid],
      [
        { knowledgeNoAnswerMessage: 'x'.repeat(1001) },
        'knowledgeNoAnswerMessage',
        'The no-answer message must be at most 1000 characters',
      ],
      [
        { knowledgeMode: 'selected', knowledgeSourceIds: [] },
        'knowledgeSourceIds',
        'Select at least one knowledge source',
      ],
    ]
    for (const [body, field, message] of refusals) {
      const onCreate = await api('POST', '', valid(body))
      expect(onCreate.status, message).toBe(400)
      expect(onCreate.body.errors, message).toEqual({ [field]: [message] })
      const onPatch = await api('PATCH', `/${agent.id}`, body)
      expect(onPatch.status, message).toBe(400)
      expect(onPatch.body.message, message).toBe(message)
      expect(onPatch.body.errors, message).toEqual({ [field]: [message] })
    }
    // "Selected" alone, for an agent with nothing selected.
    const selectedAlone = await api('PATCH', `/${agent.id}`, { knowledgeMode: 'selected' })
    expect(selectedAlone.status).toBe(400)
    expect(selectedAlone.body.errors).toEqual({
      knowledgeSourceIds: ['Select at least one knowledge source'],
    })
    expect((await api('GET', `/${agent.id}`)).body.data).toEqual(agent)
  })

  it("cross-tenant: another organization's source id is refused and never stored", async () => {
    const [ada, bob] = await Promise.all([newTenant(), newTenant()])
    const own = await addTestShop(runtime.database.db, ada.orgId)
    const theirs = await addTestShop(runtime.database.db, bob.orgId)
    const foreign = AGENT_KNOWLEDGE_TEXTS.foreignSource(theirs.returns.id)

    const refused = await ada.api(
      'POST',
      '',
      valid({ knowledgeMode: 'selected', knowledgeSourceIds: [theirs.returns.id] }),
    )
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      success: false,
      message: foreign,
      errors: { knowledgeSourceIds: [foreign] },
    })

    const agent = (
      await ada.api('POST', '', valid({ knowledgeMode: 'selected', knowledgeSourceIds: [own.returns.id] }))
    ).body.data
    expect(agent.knowledgeSourceIds).toEqual([own.returns.id])
    const patched = await ada.api('PATCH', `/${agent.id}`, {
      knowledgeSourceIds: [own.returns.id, theirs.shipping.id],
    })
    expect(patched.status).toBe(400)
    expect(patched.body.message).toBe(AGENT_KNOWLEDGE_TEXTS.foreignSource(theirs.shipping.id))
    expect((await ada.api('GET', `/${agent.id}`)).body.data.knowledgeSourceIds).toEqual([own.returns.id])
  })

  it('PATCH changes only the knowledge fields given', async () => {
    const { orgId, api } = await newTenant()
    const { shipping, hours } = await addTestShop(runtime.database.db, orgId)
    const created = (await api('POST', '', valid())).body.data
    const changes: Record<string, unknown>[] = [
      { knowledgePassages: 1 },
      { knowledgePassages: 10 },
      { knowledgeMinRelevance: 0 },
      { knowledgeMinRelevance: 1 },
      { knowledgeNoAnswerMessage: '' },
      { knowledgeNoAnswerMessage: 'A colleague will answer this one.' },
      { knowledgeMode: 'selected', knowledgeSourceIds: [shipping.id, hours.id] },
      { knowledgeMode: 'none' },
      { knowledgeMode: 'selected' },
      { knowledgeSourceIds: [hours.id] },
    ]
    let expected = created
    for (const change of changes) {
      const patched = await api('PATCH', `/${created.id}`, change)
      expect(patched.status, JSON.stringify(change)).toBe(200)
      expected = { ...expected, ...change, updatedAt: patched.body.data.updatedAt }
      expect(patched.body.data, JSON.stringify(change)).toEqual(expected)
    }
  })

  it('a run answers from the knowledge and names the passages; one no passage matches is still answered, or a miss when the model finds no answer', async () => {
    const { orgId, api } = await newTenant()
    const { shipping } = await addTestShop(runtime.database.db, orgId)
    const agent = (await api('POST', '', valid())).body.data
    type Run = { output: string; executionId: string; modelUsed: string; knowledge: unknown }
    const answered = await api<Run>('POST', `/${agent.id}/run`, { input: 'How much does shipping cost?' })
    expect(answered.status).toBe(200)
    expect(answered.body.data).toMatchObject({
      output: 'Echo: How much does shipping cost?',
      executionId: expect.stringMatching(/^exec_/),
      language: 'en',
      knowledge: {
        miss: false,
        passages: [{ sourceId: shipping.id, title: 'How much does shipping cost?', headingPath: [] }],
      },
    })
    const unmatched = await api<Run>('POST', `/${agent.id}/run`, { input: 'Hello there!' })
    expect(unmatched.body.data).toMatchObject({ output: 'Echo: Hello there!' })
    // The question's language, as the run records it (issue 36).
    const spanish = await api<Run>('POST', `/${agent.id}/run`, { input: '¿Cuánto cuesta el envío a Valencia?' })
    expect(spanish.body.data).toMatchObject({ language: 'es' })
    model.enqueue({ reply: NO_ANSWER, match: 'vintage typewriters' })
    const missed = await api<Run>('POST', `/${agent.id}/run`, { input: 'Do you repair vintage typewriters?' })
    expect(missed.status).toBe(200)
    expect(missed.body.data).toMatchObject({
      output: AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage,
      executionId: expect.stringMatching(/^exec_/),
      knowledge: { miss: true, passages: [] },
    })
  })
})

describe("an agent's language through the API (issue 36)", () => {
  it('create takes replyLanguage and translations (defaults: null and {}); PATCH changes them; GET shows them', async () => {
    const { api } = await newTenant()
    const plain = await api('POST', '', valid())
    expect(plain.status).toBe(201)
    expect(plain.body.data).toMatchObject({ replyLanguage: null, translations: {} })
    const fixed = await api(
      'POST',
      '',
      valid({ replyLanguage: 'es', translations: { es: { handoff: 'Ahora te atiende Ana.' } } }),
    )
    expect(fixed.status).toBe(201)
    expect(fixed.body.data).toMatchObject({
      replyLanguage: 'es',
      translations: { es: { handoff: 'Ahora te atiende Ana.' } },
    })
    const patched = await api('PATCH', `/${fixed.body.data.id}`, { replyLanguage: null, translations: {} })
    expect(patched.status).toBe(200)
    expect((await api('GET', `/${fixed.body.data.id}`)).body.data).toMatchObject({
      replyLanguage: null,
      translations: {},
    })
  })

  it('a bad language code, or message, is a 400 that says why, on create and on PATCH, and changes nothing', async () => {
    const { api } = await newTenant()
    const agent = (await api('POST', '', valid({ replyLanguage: 'pt' }))).body.data
    const languages = 'en, es, pt, fr, de, it, ru, uk, tr, id'
    const refusals: [Record<string, unknown>, string, string][] = [
      [
        { replyLanguage: 'xx' },
        'replyLanguage',
        `The reply language must be one of: ${languages} (or none: the customer's language)`,
      ],
      [
        { replyLanguage: 'ES' },
        'replyLanguage',
        `The reply language must be one of: ${languages} (or none: the customer's language)`,
      ],
      [
        { translations: { xx: { handoff: 'Hi' } } },
        'translations',
        `Translations can only be given for these languages: ${languages}`,
      ],
      [
        { translations: { es: { greeting: 'Hola' } } },
        'translations.es',
        'Only these messages can be translated: handoff, fallback, unreadable, out-of-hours, no-knowledge',
      ],
      [
        { translations: { es: { handoff: 'x'.repeat(1001) } } },
        'translations.es.handoff',
        'The handoff message in Spanish must be at most 1000 characters',
      ],
      [
        { translations: { es: { handoff: 7 } } },
        'translations.es.handoff',
        'The handoff message in Spanish must be text',
      ],
      [
        { translations: ['es'] },
        'translations',
        'Translations must be an object of languages, each with its messages',
      ],
    ]
    for (const [body, field, message] of refusals) {
      const onCreate = await api('POST', '', valid(body))
      expect(onCreate.status, message).toBe(400)
      expect(onCreate.body.errors, message).toEqual({ [field]: [message] })
      const onPatch = await api('PATCH', `/${agent.id}`, { ...body, name: 'Renamed' })
      expect(onPatch.status, message).toBe(400)
      expect(onPatch.body.message, message).toBe(message)
    }
    const nul = await api('PATCH', `/${agent.id}`, { translations: { es: { handoff: 'a\u0000b' } } })
    expect(nul.status).toBe(400)
    expect((await api('GET', `/${agent.id}`)).body.data).toEqual(agent)
  })
})
