import { describe, expect, it } from 'vitest'
import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { addProcessingFaq, addTestShop } from '../../../tests/setup/knowledge'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { groundQuestion, type AgentKnowledgeSettings } from './agent-knowledge.server'

const getDb = withTestDatabase()

const agentOf = (organizationId: string, settings: Partial<AgentKnowledgeSettings> = {}) => ({
  organizationId,
  ...AGENT_KNOWLEDGE_DEFAULTS,
  ...settings,
})

describe('groundQuestion', () => {
  it('an organization without any passage has no knowledge in play: the model answers as before', async () => {
    const db = getDb()
    const { organizationId } = await newOwnerScope(db)
    expect(await groundQuestion(db, agentOf(organizationId), 'How much does shipping cost?')).toEqual({
      kind: 'none',
    })
    // A source still being processed holds no passage yet.
    await addProcessingFaq(db, organizationId, 'How much does shipping cost?')
    expect(await groundQuestion(db, agentOf(organizationId), 'How much does shipping cost?')).toEqual({
      kind: 'none',
    })
  })

  it('with knowledge, a matching question gets its passages, any other none (the model answers from its instructions, or says it does not know)', async () => {
    const db = getDb()
    const { organizationId } = await newOwnerScope(db)
    const { shipping } = await addTestShop(db, organizationId)
    const grounded = await groundQuestion(db, agentOf(organizationId), 'what does shipping cost')
    expect(grounded.kind === 'passages' && grounded.hits[0].sourceId).toBe(shipping.id)
    expect(await groundQuestion(db, agentOf(organizationId), 'Do you sell quantum computers?')).toEqual({
      kind: 'passages',
      hits: [],
    })
    // Small talk needs no knowledge; an agent without knowledge has none in its prompt.
    expect(await groundQuestion(db, agentOf(organizationId), 'hi')).toEqual({ kind: 'none' })
    expect(
      await groundQuestion(
        db,
        agentOf(organizationId, { knowledgeMode: 'none' }),
        'Do you sell quantum computers?',
      ),
    ).toEqual({ kind: 'none' })
  })

  it('a selection is searched alone: without a passage of its own it is no knowledge, with one it is knowledge that matched nothing', async () => {
    const db = getDb()
    const { organizationId } = await newOwnerScope(db)
    const { returns } = await addTestShop(db, organizationId)
    const pending = await addProcessingFaq(db, organizationId, 'Do you ship abroad?')
    const selecting = (ids: string[]) =>
      agentOf(organizationId, { knowledgeMode: 'selected', knowledgeSourceIds: ids })
    expect(await groundQuestion(db, selecting([pending.id]), 'How much does shipping cost?')).toEqual({
      kind: 'none',
    })
    expect(await groundQuestion(db, selecting([returns.id]), 'How much does shipping cost?')).toEqual({
      kind: 'passages',
      hits: [],
    })
    expect(await groundQuestion(db, selecting([]), 'How much does shipping cost?')).toEqual({ kind: 'none' })
  })
})
