import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_CHAT_TEXTS } from '~/components/agents/texts'
import { agentRuns } from '~/db/schema'
import { commitSessionCookie } from '~/http/auth.server'
import { createAgentSchema } from '~/lib/agents/schemas'
import type { Runtime } from '~/runtime/runtime.server'
import { createAgent } from '~/services/agents/agents.server'
import { TEST_CONVERSATION_GONE } from '~/services/agents/run-agent.server'
import { userForToken } from '~/services/auth/profile.server'
import { createSession } from '~/services/auth/sessions.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { bootRuntime } from '../../tests/setup/runtime'
import { action } from './_app.agents.$agentId_.[test]'

// The Test Agent chat's action as Remix calls it (docs/decisions/067), on a runtime with no model provider: what
// the owner reads, and a conversation that is not theirs.
let booted: Awaited<ReturnType<typeof bootRuntime>>
let runtime: Runtime
beforeAll(async () => {
  booted = await bootRuntime('test-agent', { WORKER_IN_PROCESS: 'false', LOG_LEVEL: 'error' })
  runtime = booted.runtime
}, 90_000) // a whole runtime boots: slow on a loaded machine
afterAll(() => booted.close())

/** A signed-in owner of a new organization with one agent: their cookie and the agent. */
async function ownerWithAgent() {
  const db = runtime.database.db
  const { idToken } = await runtime.identity.signUp(uniqueEmail('tester'), 'Secret123')
  const user = await userForToken({ db, token: await runtime.identity.verifyIdToken(idToken) })
  const session = await createSession({ db, userId: user.id })
  const org = await createOrganization({ db, userId: user.id, name: 'Test shop' })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  const agent = await createAgent(
    scope,
    createAgentSchema.parse({
      name: 'Shop Helper',
      readableId: `helper-${randomUUID().slice(0, 8)}`,
      modelType: 'simple',
      creativityLevel: 0.5,
      systemPrompt: 'Answer questions about the shop.',
    }),
  )
  return { cookie: (await commitSessionCookie(session.id)).split(';')[0], scope, agent }
}

async function send(cookie: string, agentId: string, fields: [string, string][]) {
  const request = new Request(`http://127.0.0.1/agents/${agentId}/test`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  })
  const result = await action({ request, params: { agentId }, context: {} })
  return 'init' in result && result.init && 'data' in result
    ? { status: result.init.status ?? 200, body: result.data }
    : { status: 200, body: result }
}

describe('the Test Agent chat action', () => {
  it('says in plain words that no model is set up; the settings are named only in the log and the API', async () => {
    const { cookie, agent } = await ownerWithAgent()
    const { status, body } = await send(cookie, agent.id, [['input', 'Do you open on Sundays?']])
    expect(status).toBe(502)
    expect(body).toMatchObject({ error: TEST_CHAT_TEXTS.noModel, turns: [] })
    expect(JSON.stringify(body)).not.toMatch(/LLM_|ANTHROPIC/)
  })

  it("refuses a conversation of another organization's runs, and shows none of it", async () => {
    const mine = await ownerWithAgent()
    const theirs = await ownerWithAgent()
    const executionId = `exec_${randomUUID()}`
    await runtime.database.db.insert(agentRuns).values({
      executionId,
      organizationId: theirs.scope.organizationId,
      agentId: theirs.agent.id,
      input: 'Their secret question',
      output: 'Their secret answer',
    })
    const { status, body } = await send(mine.cookie, mine.agent.id, [
      ['history[0]', executionId],
      ['input', 'Hello'],
    ])
    expect(status).toBe(400)
    expect(body).toMatchObject({ error: TEST_CONVERSATION_GONE, turns: [] })
    expect(JSON.stringify(body)).not.toContain('Their secret')
  })
})
