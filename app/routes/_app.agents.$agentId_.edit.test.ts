import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitSessionCookie } from '~/http/auth.server'
import { AGENT_LANGUAGE_TEXTS } from '~/lib/agents/agent-language'
import { BEHAVIOUR_FORM_MARKER } from '~/lib/agents/behaviour-form'
import { BUILT_IN_TEXTS } from '~/lib/agents/built-in-texts'
import { KNOWLEDGE_FORM_MARKER } from '~/lib/agents/knowledge'
import { createAgentBodySchema } from '~/lib/agents/schemas'
import { shownTranslations } from '~/lib/agents/translations'
import type { Runtime } from '~/runtime/runtime.server'
import { createAgent, getAgent, type AgentView } from '~/services/agents/agents.server'
import { userForToken } from '~/services/auth/profile.server'
import { createSession } from '~/services/auth/sessions.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { bootRuntime } from '../../tests/setup/runtime'
import { action } from './_app.agents.$agentId_.edit'

// The Edit Agent form's post as Remix hands it to the action, on a real database: the Behaviour tab's Language group
// (issue 36, docs/decisions/072) round trip, from the boxes as the form fills them to what is stored.
let booted: Awaited<ReturnType<typeof bootRuntime>>
let runtime: Runtime
beforeAll(async () => {
  booted = await bootRuntime('edit-agent-language', { WORKER_IN_PROCESS: 'false', LOG_LEVEL: 'error' })
  runtime = booted.runtime
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(() => booted.close())

async function ownerWithAgent() {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail('owner'), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const session = await createSession({ db, userId: user.id })
  const org = await createOrganization({ db, userId: user.id, name: 'Bakery' })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  const agent = await createAgent(
    scope,
    createAgentBodySchema.parse({
      name: 'Bakery Helper',
      readableId: `bakery-${randomUUID().slice(0, 8)}`,
      systemPrompt: 'Answer questions about the bakery.',
    }),
  )
  return { cookie: (await commitSessionCookie(session.id)).split(';')[0], scope, agent }
}

/** Every field the edit form posts for `agent`, as it fills them (the translation boxes with what is sent now). */
function formOf(agent: AgentView): Record<string, string> {
  const translations = Object.entries(shownTranslations(agent)).flatMap(([language, texts]) =>
    Object.entries(texts).map(([kind, text]) => [`translations.${language}.${kind}`, text]),
  )
  return {
    name: agent.name,
    systemPrompt: agent.systemPrompt,
    modelType: agent.modelType,
    creativityLevel: String(agent.creativityLevel),
    maxTokens: String(agent.maxTokens),
    topP: String(agent.topP),
    topK: String(agent.topK),
    status: agent.status,
    [BEHAVIOUR_FORM_MARKER]: 'true',
    burstWaitSeconds: String(agent.burstWaitSeconds),
    handoffEnabled: 'on',
    handoffMessage: agent.handoffMessage,
    fallbackMessage: agent.fallbackMessage,
    unreadableMessage: agent.unreadableMessage,
    replyLanguage: agent.replyLanguage ?? '',
    ...Object.fromEntries(translations),
    [KNOWLEDGE_FORM_MARKER]: 'true',
    knowledgeMode: agent.knowledgeMode,
    knowledgePassages: String(agent.knowledgePassages),
    knowledgeMinRelevance: String(agent.knowledgeMinRelevance),
    knowledgeNoAnswerMessage: agent.knowledgeNoAnswerMessage,
  }
}

async function post(cookie: string, agentId: string, fields: Record<string, string>) {
  const request = new Request(`http://127.0.0.1/agents/${agentId}/edit`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  })
  const result = await action({ request, params: { agentId }, context: {} })
  return 'init' in result && result.init && 'data' in result
    ? { status: result.init.status ?? 200, body: result.data }
    : { status: 200, body: result }
}

describe('the Edit Agent form’s Language group, posted', () => {
  it('an untouched form stores no translation, also when the agent’s own message changes in the same save', async () => {
    const { cookie, scope, agent } = await ownerWithAgent()
    expect((await post(cookie, agent.id, formOf(agent))).status).toBe(200)
    expect(await getAgent(scope, agent.id)).toMatchObject({ replyLanguage: null, translations: {} })

    const rewritten = { ...formOf(agent), handoffMessage: 'Ana from the bakery will answer you here.' }
    expect((await post(cookie, agent.id, rewritten)).status).toBe(200)
    // The Spanish box still held the Spanish default: not a choice, so Spanish customers get Ana's words.
    expect(await getAgent(scope, agent.id)).toMatchObject({
      handoffMessage: 'Ana from the bakery will answer you here.',
      translations: {},
    })
  })

  it('stores the language picked and the boxes changed, and keeps them on the next untouched save', async () => {
    const { cookie, scope, agent } = await ownerWithAgent()
    const fields = {
      ...formOf(agent),
      replyLanguage: 'pt',
      'translations.pt.handoff': 'A Ana da padaria responde aqui.',
      'translations.es.fallback': '',
    }
    expect((await post(cookie, agent.id, fields)).status).toBe(200)
    const saved = await getAgent(scope, agent.id)
    expect(saved).toMatchObject({
      replyLanguage: 'pt',
      translations: { pt: { handoff: 'A Ana da padaria responde aqui.' } },
    })
    expect(shownTranslations(saved).es.fallback).toBe(BUILT_IN_TEXTS.es.fallback)
    expect((await post(cookie, agent.id, formOf(saved))).status).toBe(200)
    expect(await getAgent(scope, agent.id)).toEqual({ ...saved, updatedAt: expect.any(Date) })
  })

  it('refuses a language that is not offered or a message too long, says why, and changes nothing', async () => {
    const { cookie, scope, agent } = await ownerWithAgent()
    const bad = await post(cookie, agent.id, { ...formOf(agent), replyLanguage: 'xx' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain(AGENT_LANGUAGE_TEXTS.replyLanguageInvalid)
    const long = await post(cookie, agent.id, {
      ...formOf(agent),
      'translations.de.handoff': 'x'.repeat(1001),
    })
    expect(long.status).toBe(400)
    expect(JSON.stringify(long.body)).toContain(
      'The handoff message in German must be at most 1000 characters',
    )
    expect(await getAgent(scope, agent.id)).toEqual(agent)
  })
})
