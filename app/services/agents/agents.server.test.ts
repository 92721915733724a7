import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { agentRuns, agents } from '~/db/schema'
import { AGENT_KNOWLEDGE_TEXTS } from '~/lib/agents/knowledge'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { KNOWLEDGE_INSTRUCTION } from '~/services/knowledge/agent-knowledge.server'
import { NO_ANSWER } from '~/lib/knowledge/knowledge'
import { NO_PASSAGE_MATCHED } from '~/services/knowledge/agent-knowledge.server'
import { createModelClient } from '~/integrations/llm/model.server'
import {
  createAgentBodySchema,
  createAgentSchema,
  patchAgentBodySchema,
  runAgentSchema,
  TEST_HISTORY_TOO_LONG,
  TEST_RUN_CONTEXT,
  updateAgentSchema,
} from '~/lib/agents/schemas'
import { startOpenAiFake } from '../../../tests/fakes/openai-server'
import { openTestDatabase } from '../../../tests/setup/database'
import { addTestShop } from '../../../tests/setup/knowledge'
import { newOwnerScope } from '../../../tests/setup/scope'
import { archiveAgent, createAgent, getAgent, listAgents, updateAgent } from './agents.server'
import { loadTestTurns, runAgent, runAgentTurn, TEST_CONVERSATION_GONE } from './run-agent.server'
import { BUILT_IN_TEXTS } from '~/lib/agents/built-in-texts'
import { fixedLanguageInstruction } from '~/lib/agents/language'
import { shownTranslations } from '~/lib/agents/translations'

let handle: DatabaseHandle
let fake: Awaited<ReturnType<typeof startOpenAiFake>>
beforeAll(async () => {
  ;[handle, fake] = await Promise.all([openTestDatabase(), startOpenAiFake()])
})
afterAll(async () => {
  await Promise.all([handle.close(), fake.close()])
})

const newScope = () => newOwnerScope(handle.db)

/** The spec's agent defaults (section 9), written out: a test that spread AGENT_DEFAULTS would follow a change to it. */
const SPEC_AGENT_DEFAULTS = {
  modelType: 'medium',
  creativityLevel: 0.7,
  maxTokens: 1000,
  topP: 0.9,
  topK: 40,
  status: 'active',
}

const input = (overrides: Record<string, unknown> = {}) =>
  createAgentSchema.parse({
    name: 'Support Bot',
    readableId: `support-${randomUUID().slice(0, 8)}`,
    modelType: 'medium',
    creativityLevel: 0.7,
    systemPrompt: 'You are a helpful support agent.',
    ...overrides,
  })

describe('agents', () => {
  it('creates with the spec defaults and the creator, active', async () => {
    const scope = await newScope()
    const { name, readableId, systemPrompt } = input()
    const agent = await createAgent(scope, createAgentSchema.parse({ name, readableId, systemPrompt }))
    expect(agent).toMatchObject({ ...SPEC_AGENT_DEFAULTS, createdBy: 'Ada', description: null })
  })

  it('keeps readable ids unique per organization, not across organizations', async () => {
    const [a, b] = await Promise.all([newScope(), newScope()])
    await createAgent(a, input({ readableId: 'shared-id' }))
    await expect(createAgent(a, input({ readableId: 'shared-id' }))).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    await expect(createAgent(b, input({ readableId: 'shared-id' }))).resolves.toMatchObject({
      readableId: 'shared-id',
    })
  })

  it('updates everything but the readable id, which the update schema refuses', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    const patch = updateAgentSchema.parse({
      ...input(),
      readableId: undefined,
      name: 'Renamed',
      status: 'inactive',
      topK: 5,
    })
    const updated = await updateAgent(scope, agent.id, patch)
    expect(updated).toMatchObject({
      name: 'Renamed',
      status: 'inactive',
      topK: 5,
      readableId: agent.readableId,
    })
    expect(updateAgentSchema.safeParse({ ...patch, readableId: 'new-id' }).success).toBe(false)
  })

  it('an API create body with only the required fields gets the spec defaults', async () => {
    const scope = await newScope()
    const { name, readableId, systemPrompt } = input()
    const agent = await createAgent(scope, createAgentBodySchema.parse({ name, readableId, systemPrompt }))
    expect(agent).toMatchObject({ ...SPEC_AGENT_DEFAULTS, description: null })
  })

  it('a partial update changes only the fields given; null clears an optional one', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input({ description: 'Answers questions', topK: 7 }))
    const unchanged = { ...agent, updatedAt: expect.any(Date) }

    const inactive = await updateAgent(scope, agent.id, patchAgentBodySchema.parse({ status: 'inactive' }))
    expect(inactive).toEqual({ ...unchanged, status: 'inactive' })
    const renamed = await updateAgent(scope, agent.id, patchAgentBodySchema.parse({ name: 'Renamed' }))
    expect(renamed).toEqual({ ...unchanged, status: 'inactive', name: 'Renamed' })
    const cleared = await updateAgent(
      scope,
      agent.id,
      patchAgentBodySchema.parse({ topK: null, description: null }),
    )
    expect(cleared).toEqual({
      ...unchanged,
      status: 'inactive',
      name: 'Renamed',
      topK: null,
      description: null,
    })
    expect(await updateAgent(scope, agent.id, patchAgentBodySchema.parse({}))).toEqual({
      ...cleared,
      updatedAt: expect.any(Date),
    })
  })

  it('lists by status with pagination; deleting archives', async () => {
    const scope = await newScope()
    const created = []
    for (let i = 0; i < 3; i++) created.push(await createAgent(scope, input()))
    await archiveAgent(scope, created[0].id)
    expect((await getAgent(scope, created[0].id)).status).toBe('archived')
    const active = await listAgents(scope, { status: 'active' })
    expect(active.total).toBe(2)
    const page = await listAgents(scope, { page: 2, pageSize: 2 })
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 })
    expect(page.items).toHaveLength(1)
  })

  it('never shows one organization the agents of another', async () => {
    const [a, b] = await Promise.all([newScope(), newScope()])
    const agent = await createAgent(a, input())
    await expect(getAgent(b, agent.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      updateAgent(b, agent.id, updateAgentSchema.parse({ ...input(), readableId: undefined })),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(archiveAgent(b, agent.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await listAgents(b)).items).toEqual([])
  })
})

describe('what an agent answers from (issue #18)', () => {
  it('a new agent answers from all of the knowledge; an agent made before answers from none', async () => {
    const scope = await newScope()
    expect(await createAgent(scope, input())).toMatchObject(AGENT_KNOWLEDGE_DEFAULTS)
    const { name, readableId, systemPrompt } = input()
    const viaApi = await createAgent(scope, createAgentBodySchema.parse({ name, readableId, systemPrompt }))
    expect(viaApi).toMatchObject({ ...AGENT_KNOWLEDGE_DEFAULTS, knowledgeMode: 'all' })
    // A row as agents were stored before the knowledge columns: their defaults.
    const [before] = await handle.db
      .insert(agents)
      .values({
        organizationId: scope.organizationId,
        readableId: `old-${randomUUID().slice(0, 8)}`,
        name: 'Old agent',
        modelType: 'medium',
        creativityLevel: 0.7,
        systemPrompt: 'You are an old agent.',
      })
      .returning({ id: agents.id })
    expect(await getAgent(scope, before.id)).toMatchObject({
      knowledgeMode: 'none',
      knowledgeSourceIds: [],
      knowledgePassages: 5,
      knowledgeMinRelevance: 0.2,
    })
  })

  it("selects only the organization's own sources; another's or an unknown id is refused and not stored", async () => {
    const [scope, other] = await Promise.all([newScope(), newScope()])
    const { shipping } = await addTestShop(handle.db, scope.organizationId)
    const theirs = await addTestShop(handle.db, other.organizationId)
    const selecting = (ids: string[]) => input({ knowledgeMode: 'selected', knowledgeSourceIds: ids })

    const agent = await createAgent(scope, selecting([shipping.id]))
    expect(agent).toMatchObject({ knowledgeMode: 'selected', knowledgeSourceIds: [shipping.id] })

    const foreign = AGENT_KNOWLEDGE_TEXTS.foreignSource(theirs.shipping.id)
    await expect(createAgent(scope, selecting([shipping.id, theirs.shipping.id]))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: foreign,
      details: { knowledgeSourceIds: [foreign] },
    })
    const unknown = randomUUID()
    await expect(
      updateAgent(scope, agent.id, patchAgentBodySchema.parse({ knowledgeSourceIds: [unknown] })),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: AGENT_KNOWLEDGE_TEXTS.foreignSource(unknown),
    })
    // Switching an agent with no selection to "Selected sources" needs one.
    const all = await createAgent(scope, input())
    await expect(
      updateAgent(scope, all.id, patchAgentBodySchema.parse({ knowledgeMode: 'selected' })),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: AGENT_KNOWLEDGE_TEXTS.selectSource })
    expect(await getAgent(scope, agent.id)).toEqual(agent)
    expect(await getAgent(scope, all.id)).toEqual(all)
  })

  it('a partial update changes only the knowledge fields given', async () => {
    const scope = await newScope()
    const { returns } = await addTestShop(handle.db, scope.organizationId)
    const agent = await createAgent(scope, input())
    const steps: Record<string, unknown>[] = [
      { knowledgePassages: 3 },
      { knowledgeMinRelevance: 0.55 },
      { knowledgeNoAnswerMessage: '' },
      { knowledgeSourceIds: [returns.id] },
      { knowledgeMode: 'selected' },
      { knowledgeMode: 'none' },
    ]
    let expected = agent
    for (const step of steps) {
      const updated = await updateAgent(scope, agent.id, patchAgentBodySchema.parse(step))
      expected = { ...expected, ...step, updatedAt: updated.updatedAt }
      expect(updated, JSON.stringify(step)).toEqual(expected)
    }
  })
})

describe('running an agent against an OpenAI-compatible model over HTTP', () => {
  const models = () =>
    createModelClient({
      openaiCompatible: { baseUrl: fake.url, apiKey: 'sk-test-key' },
      models: {},
      timeoutMs: 5_000,
    })

  it("sends the agent's prompt and parameters, records the run with usage", async () => {
    const scope = await newScope()
    const agent = await createAgent(
      scope,
      input({ creativityLevel: 0.3, topP: 0.8, topK: 12, maxTokens: 256 }),
    )
    const before = fake.requests.length
    const result = await runAgent(
      scope,
      agent.id,
      { input: 'Where is my order?', context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    const sent = fake.requests[before].body
    expect(sent).toMatchObject({ temperature: 0.3, top_p: 0.8, top_k: 12, max_tokens: 256 })
    expect(JSON.stringify(sent.messages)).toContain('You are a helpful support agent.')
    expect(JSON.stringify(sent.messages)).toContain('Where is my order?')
    expect(result.output).toBe('Echo: Where is my order?')
    expect(result.executionId).toMatch(/^exec_/)
    expect(result.tokensUsed.total).toBe(result.tokensUsed.prompt + result.tokensUsed.completion)
    expect(result.tokensUsed.total).toBeGreaterThan(0)
    const [run] = await handle.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.executionId, result.executionId))
    expect(run).toMatchObject({ testMode: true, output: 'Echo: Where is my order?', error: null })
  })

  it('a test conversation: the model reads the earlier turns, named by execution id, before the new message', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    const first = await runAgentTurn(scope, agent.id, { input: 'Do you deliver?' }, { models: models() })
    expect(first.earlier).toEqual([])
    const before = fake.requests.length
    const second = await runAgentTurn(
      scope,
      agent.id,
      { input: 'And on Sundays?', history: [first.result.executionId] },
      { models: models() },
    )
    const sent = fake.requests[before].body.messages as { role: string; content: unknown }[]
    expect(sent.slice(1).map(({ role, content }) => [role, JSON.stringify(content)])).toEqual([
      ['user', expect.stringContaining('Do you deliver?')],
      ['assistant', expect.stringContaining('Echo: Do you deliver?')],
      ['user', expect.stringContaining('And on Sundays?')],
    ])
    expect(second.earlier).toEqual([{ input: 'Do you deliver?', run: first.result }])
    expect(await loadTestTurns(scope, agent, [first.result.executionId, second.result.executionId])).toEqual([
      { input: 'Do you deliver?', run: first.result },
      { input: 'And on Sundays?', run: second.result },
    ])

    // Another agent's run, or another organization's, is not this conversation: refused, and nothing is asked.
    const other = await createAgent(scope, input())
    const stranger = await newScope()
    const strangerAgent = await createAgent(stranger, input())
    const asked = fake.requests.length
    for (const [who, agentId] of [
      [scope, other.id],
      [stranger, strangerAgent.id],
    ] as const) {
      await expect(
        runAgentTurn(
          who,
          agentId,
          { input: 'Hi', history: [first.result.executionId] },
          { models: models() },
        ),
      ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: TEST_CONVERSATION_GONE })
    }
    expect(fake.requests.length).toBe(asked)
  })

  it('the run body takes at most ten earlier turns, each an execution id', () => {
    const id = () => `exec_${randomUUID()}`
    expect(runAgentSchema.safeParse({ input: 'hi', history: Array.from({ length: 10 }, id) }).success).toBe(
      true,
    )
    expect(
      runAgentSchema.safeParse({ input: 'hi', history: Array.from({ length: 11 }, id) }).error?.issues[0]
        ?.message,
    ).toBe(TEST_HISTORY_TOO_LONG)
    expect(runAgentSchema.safeParse({ input: 'hi', history: ["'; drop table agent_runs"] }).success).toBe(
      false,
    )
  })

  it('a provider failure is recorded with its reason and reported as UPSTREAM_ERROR', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    fake.setBehavior({ status: 500 })
    try {
      await expect(runAgent(scope, agent.id, { input: 'hi' }, { models: models() })).rejects.toMatchObject({
        code: 'UPSTREAM_ERROR',
      })
    } finally {
      fake.setBehavior({})
    }
    const runs = await handle.db.select().from(agentRuns).where(eq(agentRuns.agentId, agent.id))
    expect(runs).toHaveLength(1)
    expect(runs[0].error).toBeTruthy()
    expect(runs[0].testMode).toBe(false)
  })

  it("grounds the test message in the agent's knowledge: the prompt carries the passages, the result names them", async () => {
    const scope = await newScope()
    const { shipping } = await addTestShop(handle.db, scope.organizationId)
    const agent = await createAgent(scope, input())
    const before = fake.requests.length
    const result = await runAgent(
      scope,
      agent.id,
      { input: 'How much does shipping cost?', context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    const system = JSON.stringify(fake.requests[before].body.messages[0])
    expect(system).toContain('You are a helpful support agent.')
    expect(system).toContain(KNOWLEDGE_INSTRUCTION)
    expect(system).toContain('Standard shipping within Germany costs 4.90 EUR')
    expect(result.knowledge).toMatchObject({
      miss: false,
      passages: [
        {
          sourceId: shipping.id,
          title: 'How much does shipping cost?',
          headingPath: [],
          text: expect.stringContaining('4.90 EUR'),
        },
      ],
    })
    expect(result.knowledge?.passages[0].score).toBeGreaterThanOrEqual(agent.knowledgeMinRelevance)
    const [run] = await handle.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.executionId, result.executionId))
    expect(run.knowledge).toEqual([expect.objectContaining({ sourceId: shipping.id })])
  })

  it('a test question no passage matches goes to the model all the same: what the prompt says is answered; a fact it does not hold is the no-answer message', async () => {
    const scope = await newScope()
    await addTestShop(handle.db, scope.organizationId)
    const agent = await createAgent(scope, {
      ...input(),
      systemPrompt: 'You are a helpful support agent. We also repair vintage typewriters (kb-typewriters).',
    })
    fake.enqueue({
      reply: 'Yes, we repair vintage typewriters.',
      match: 'Do you repair vintage typewriters?',
    })
    const answered = await runAgent(
      scope,
      agent.id,
      { input: 'Do you repair vintage typewriters?', context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    expect(answered).toMatchObject({
      output: 'Yes, we repair vintage typewriters.',
      knowledge: { passages: [], miss: false },
    })
    const system = JSON.stringify(fake.requests.at(-1)?.body.messages[0])
    expect(system).toContain('kb-typewriters')
    expect(system).toContain(KNOWLEDGE_INSTRUCTION)
    expect(system).toContain(NO_PASSAGE_MATCHED)

    fake.enqueue({ reply: NO_ANSWER, match: 'Do you sell fountain pens?' })
    const missed = await runAgent(
      scope,
      agent.id,
      { input: 'Do you sell fountain pens?', context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    expect(missed).toMatchObject({
      output: agent.knowledgeNoAnswerMessage,
      handoff: null,
      knowledge: { passages: [], miss: true },
    })
    expect(missed.modelUsed).not.toBe('')
    const [run] = await handle.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.executionId, missed.executionId))
    expect(run).toMatchObject({
      testMode: true,
      output: agent.knowledgeNoAnswerMessage,
      context: expect.objectContaining({ knowledgeMiss: true }),
    })
  })

  it('a test question the passages found do not answer: the model says so, the result is the no-answer message', async () => {
    const scope = await newScope()
    await addTestShop(handle.db, scope.organizationId)
    const agent = await createAgent(scope, input())
    const question = 'Does shipping to the moon cost extra? (kb-moon)'
    fake.enqueue({ reply: NO_ANSWER, match: 'kb-moon' })
    const result = await runAgent(
      scope,
      agent.id,
      { input: question, context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    expect(result).toMatchObject({
      output: agent.knowledgeNoAnswerMessage,
      handoff: null,
      knowledge: {
        miss: true,
        passages: [expect.objectContaining({ title: 'How much does shipping cost?' })],
      },
    })
    expect(result.modelUsed).not.toBe('')
    const [run] = await handle.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.executionId, result.executionId))
    expect(run).toMatchObject({
      output: agent.knowledgeNoAnswerMessage,
      context: expect.objectContaining({ knowledgeMiss: true }),
      knowledge: [expect.objectContaining({ title: 'How much does shipping cost?' })],
    })
  })

  it('an organization without knowledge, or an agent that uses none, answers from the prompt alone', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    const before = fake.requests.length
    const result = await runAgent(
      scope,
      agent.id,
      { input: 'Do you repair typewriters?' },
      { models: models() },
    )
    expect(result).toMatchObject({ output: 'Echo: Do you repair typewriters?', knowledge: null })
    expect(JSON.stringify(fake.requests[before].body.messages[0])).not.toContain(KNOWLEDGE_INSTRUCTION)
  })

  it('an archived agent does not run', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    await archiveAgent(scope, agent.id)
    await expect(runAgent(scope, agent.id, { input: 'hi' }, { models: models() })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })
  it('Test Agent with an agent fixed to German: the prompt asks for German for an English question, and its no-answer message is German', async () => {
    const scope = await newScope()
    await addTestShop(handle.db, scope.organizationId)
    const agent = await createAgent(scope, input({ replyLanguage: 'de' }))
    fake.enqueue({ reply: NO_ANSWER, match: 'kb-moon-de' })
    const before = fake.requests.length
    const result = await runAgent(
      scope,
      agent.id,
      { input: 'Does shipping to the moon cost extra? (kb-moon-de)', context: TEST_RUN_CONTEXT },
      { models: models() },
    )
    expect(JSON.stringify(fake.requests[before].body.messages[0])).toContain(
      JSON.stringify(fixedLanguageInstruction('de')).slice(1, -1),
    )
    expect(result).toMatchObject({ output: BUILT_IN_TEXTS.de['no-knowledge'], knowledge: { miss: true } })
  })
})

describe("an agent's language and the owner's translations (issue 36)", () => {
  it('a new agent answers in the customer’s language with no translations; an untouched form stores none', async () => {
    const scope = await newScope()
    const plain = await createAgent(scope, input())
    expect(plain).toMatchObject({ replyLanguage: null, translations: {} })
    const shown = shownTranslations({ ...plain, translations: {} })
    const formed = await createAgent(scope, input({ translations: shown }), { prefilled: true })
    expect(formed.translations).toEqual({})
    const edited = await updateAgent(
      scope,
      formed.id,
      updateAgentSchema.parse({ ...input(), readableId: undefined, translations: shownTranslations(formed) }),
      { prefilled: true },
    )
    expect(edited.translations).toEqual({})
  })

  it('keeps only the translations that change what the customer gets, and replaces them as a whole', async () => {
    const scope = await newScope()
    const agent = await createAgent(scope, input())
    const changed = await updateAgent(scope, agent.id, {
      replyLanguage: 'pt',
      translations: {
        pt: { handoff: '  Já chamo a Ana.  ', fallback: BUILT_IN_TEXTS.pt.fallback },
        es: { unreadable: '' },
      },
    })
    expect(changed).toMatchObject({
      replyLanguage: 'pt',
      translations: { pt: { handoff: 'Já chamo a Ana.' } },
    })
    expect(await getAgent(scope, agent.id)).toMatchObject({
      translations: { pt: { handoff: 'Já chamo a Ana.' } },
    })
    // Left out: unchanged; given: replaced; null: the customer's language again.
    expect(await updateAgent(scope, agent.id, { name: 'Renamed' })).toMatchObject({ replyLanguage: 'pt' })
    const replaced = await updateAgent(scope, agent.id, {
      replyLanguage: null,
      translations: { de: { 'no-knowledge': 'Das weiß ich leider nicht.' } },
    })
    expect(replaced).toMatchObject({
      replyLanguage: null,
      translations: { de: { 'no-knowledge': 'Das weiß ich leider nicht.' } },
    })
  })
})
