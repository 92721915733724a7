import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The layer rules of eslint.config.js (docs/decisions/032), run as `npm test` runs them: each import is linted as if
 * it were in a file of the named layer, and must be refused (or allowed) with the ADR's reason.
 */
const eslint = new ESLint()

async function problemsOf(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}'\nexport const y = x\n`, {
    filePath: path.resolve(file),
  })
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

const REFUSED: [string, string][] = [
  ['app/routes/_app.example.tsx', '~/db/client.server'],
  ['app/routes/api.v1.example.ts', '~/integrations/telegram/bot-api.server'],
  ['app/services/channels/example.server.ts', '~/http/api.server'],
  ['app/services/channels/example.server.ts', '~/runtime/runtime.server'],
  ['app/services/channels/example.server.ts', '~/components/agents/agent-card'],
  ['app/integrations/meta/example.server.ts', '~/db/schema'],
  ['app/integrations/meta/example.server.ts', '~/services/channels/channels.server'],
  ['app/components/agents/example.tsx', '~/utils/crypto.server'],
  ['app/components/agents/example.tsx', '~/services/agents/agents.server'],
  ['app/lib/example.ts', '~/db/schema'],
  ['app/utils/example.ts', '~/lib/shared/constants'],
  ['app/utils/example.ts', '~/runtime/config.server'],
  ['app/db/example.ts', '~/services/agents/agents.server'],
  ['app/jobs/example.server.ts', '~/http/api.server'],
  ['app/workers/example.server.ts', '~/runtime/runtime.server'],
  ['app/http/example.server.ts', '~/components/layout/app-shell'],
  ['app/services/agents/example.server.ts', '../../db/schema'],
  ['app/components/agents/example.tsx', '~/routes/_app.agents'],
]

const ALLOWED: [string, string][] = [
  ['app/routes/_app.example.tsx', '~/services/agents/agents.server'],
  ['app/routes/_app.example.tsx', '~/http/organization.server'],
  ['app/services/channels/example.server.ts', '~/db/schema'],
  ['app/services/channels/example.server.ts', '~/integrations/telegram/bot-api.server'],
  ['app/components/agents/example.tsx', '~/lib/shared/constants'],
  ['app/runtime/example.server.ts', '~/services/agents/agents.server'],
  ['app/lib/example.ts', '~/utils/errors'],
  // Tests wire the layers together on purpose.
  ['app/services/channels/example.server.test.ts', '~/runtime/runtime.server'],
]

// The order of the service domains and the pipeline's stages (docs/decisions/052).
const DOMAIN_REFUSED: [string, string][] = [
  ['app/services/knowledge/example.server.ts', '~/services/agents/agents.server'],
  ['app/services/agents/example.server.ts', '~/services/messages/reply/reply.server'],
  ['app/services/messages/ingest/example.server.ts', '~/services/conversations/takeover.server'],
  ['app/services/messages/inbound/example.server.ts', '~/services/channels/channels.server'],
  ['app/services/organizations/example.server.ts', '~/services/auth/users.server'],
  ['app/services/conversations/example.server.ts', '~/services/messages/reply/senders.server'],
  ['app/services/messages/ingest/example.server.ts', '~/services/messages/reply/queries.server'],
  ['app/services/messages/inbound/example.server.ts', '~/services/messages/reply/senders.server'],
  ['app/services/messages/reply/example.server.ts', '~/services/messages/inbound/meta.server'],
  ['app/services/messages/reply/example.server.ts', '~/services/messages/port.server'],
]

const DOMAIN_ALLOWED: [string, string][] = [
  ['app/services/agents/example.server.ts', '~/services/knowledge/embeddings.server'],
  ['app/services/conversations/example.server.ts', '~/services/messages/port.server'],
  ['app/services/messages/inbound/example.server.ts', '~/services/messages/ingest/ingest.server'],
  ['app/services/messages/reply/example.server.ts', '~/services/agents/run-agent.server'],
  ['app/services/analytics/example.server.ts', '~/services/organizations/scope.server'],
  ['app/services/knowledge/example.server.test.ts', '~/services/messages/reply/reply.server'],
]

describe('the domain order', () => {
  it.each(DOMAIN_REFUSED)('refuses, in %s, an import of %s', async (file, from) => {
    const problems = await problemsOf(file, from)
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems) expect(problem).toMatch(/docs\/decisions\/052/)
  })

  it.each(DOMAIN_ALLOWED)('allows, in %s, an import of %s', async (file, from) => {
    expect(await problemsOf(file, from)).toEqual([])
  })

  // The services layer's own rules still hold in a domain's files.
  it('keeps the layer rules in a domain and a stage', async () => {
    expect(await problemsOf('app/services/conversations/example.server.ts', '~/http/api.server')).not.toEqual(
      [],
    )
    expect(
      await problemsOf('app/services/messages/reply/example.server.ts', '~/jobs/reply.server'),
    ).not.toEqual([])
  })
})

describe('the layer rules', () => {
  it.each(REFUSED)('refuse, in %s, an import of %s', async (file, from) => {
    const problems = await problemsOf(file, from)
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems)
      expect(problem).toMatch(/docs\/decisions\/032|Nothing imports a route module/)
  })

  it.each(ALLOWED)('allow, in %s, an import of %s', async (file, from) => {
    expect(await problemsOf(file, from)).toEqual([])
  })

  const violation = path.resolve('app/services/zz-layer-violation.server.ts')
  afterAll(() => rmSync(violation, { force: true }))

  const domainViolation = path.resolve('app/services/knowledge/zz-domain-violation.server.ts')
  afterAll(() => rmSync(domainViolation, { force: true }))

  /** `eslint` itself on a real file holding one import: its exit code and what it printed. */
  function lintRealFile(file: string, from: string, name: string) {
    writeFileSync(file, `import { ${name} } from '${from}'\nexport const y = ${name}\n`)
    return spawnSync(process.execPath, ['node_modules/eslint/bin/eslint.js', file], { encoding: 'utf8' })
  }

  it('fail `eslint` on a real file that breaks the domain order', () => {
    const run = lintRealFile(domainViolation, '~/services/agents/agents.server', 'getAgent')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('services/knowledge may import only the domains before it')
  })

  it('fail `eslint` on a real file that crosses a layer', () => {
    const run = lintRealFile(violation, '~/http/api.server', 'requireApiUser')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('Services take plain arguments')
  })
})
