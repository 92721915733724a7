import { describe, expect, it } from 'vitest'
import { databaseTestFiles } from '../../scripts/lib/database-tests.js'

describe("npm test's PostgreSQL pass (scripts/lib/database-tests.js)", () => {
  const files = databaseTestFiles(['app', 'server', 'tests/integration', 'tests/drills'])

  it('takes the tests that reach a database: services, routes, jobs, the drills', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'app/services/conversations/export.server.test.ts',
        'app/services/messages/statement-budget.server.test.ts',
        'app/routes/conversations.events.test.ts',
        'app/jobs/reply.server.test.ts',
        'app/db/jobs.server.test.ts',
        'tests/drills/worker-crash.test.ts',
      ]),
    )
  })

  it('leaves out those that never open one', () => {
    for (const pure of [
      'app/lib/conversations/list-query.test.ts',
      'app/lib/api/openapi.test.ts',
      'app/theme.test.ts',
    ]) {
      expect(files).not.toContain(pure)
    }
  })
})
