import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { openTestDatabase } from '../../../tests/setup/database'
import { checkHealth } from './check-health.server'

let database: DatabaseHandle
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

describe('checkHealth', () => {
  it('answers ok with the driver when the database answers a query', async () => {
    const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite'
    expect(await checkHealth(database)).toEqual({ status: 'ok', database: driver })
  })
})
