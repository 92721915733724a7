import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { listenForNotifications } from '~/db/listen.server'
import { conversations, messages } from '~/db/schema'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { createLogger } from '~/utils/logger.server'
import { ROOT } from '../../../tests/setup/app-rig'
import { openTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { insertTestMetaChannel } from '../../../tests/setup/tenant'
import {
  createInboxEvents,
  INBOX_EVENTS_CHANNEL,
  type InboxEvent,
  type InboxEvents,
} from './inbox-events.server'
import { pauseConversation, resumeConversation } from './takeover.server'

// The hub against the real database: the triggers of migration 0008 notify, this process listens (PGlite: the
// instance; PostgreSQL: a connection of its own), subscribers hear their organization's conversations.
const onPostgres = Boolean(process.env.DATABASE_URL)
let handle: DatabaseHandle
const logs: string[] = []
const logger = createLogger({ level: 'debug', sink: (line) => logs.push(line) })
const hubs: InboxEvents[] = []

beforeAll(async () => {
  handle = await openTestDatabase()
})
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()))
})
afterAll(() => handle.close())

function newHub({ coalesceMs = 100, applicationName = 'inbox events test' } = {}) {
  const hub = createInboxEvents({
    listen: (handlers) =>
      listenForNotifications(
        handle,
        {
          channel: INBOX_EVENTS_CHANNEL,
          databaseUrl: process.env.DATABASE_URL,
          logger,
          applicationName,
          backoff: { firstMs: 100, maxMs: 1_000 },
        },
        handlers,
      ),
    logger,
    coalesceMs,
  })
  hubs.push(hub)
  return hub
}

/** What a subscriber heard, and a way to wait for the next thing it hears. */
function recorder() {
  const heard: { event: InboxEvent; at: number }[] = []
  let wake: (() => void) | undefined
  return {
    heard,
    events: () => heard.map((h) => h.event),
    listener: (event: InboxEvent) => {
      heard.push({ event, at: Date.now() })
      wake?.()
    },
    /** Until `count` things were heard, or fails after `timeoutMs`. */
    async until(count: number, timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs
      while (heard.length < count) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`heard ${heard.length} of ${count} in ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
      return heard.slice(0, count).map((h) => h.event)
    },
  }
}

const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A tenant with a Facebook page and one conversation on it. */
async function newTenant() {
  const scope = await newOwnerScope(handle.db)
  const { channelId } = await insertTestMetaChannel(
    scope,
    { encryptionKey: randomBytes(32).toString('hex') },
    'facebook',
  )
  return { scope, channelId, conversationId: await newConversation(scope, channelId) }
}

async function newConversation(scope: OrganizationScope, channelId: string) {
  const [row] = await handle.db
    .insert(conversations)
    .values({ organizationId: scope.organizationId, channelId, platformChatId: `chat-${randomUUID()}` })
    .returning({ id: conversations.id })
  return row.id
}

function insertMessage(tenant: { scope: OrganizationScope; channelId: string }, conversationId: string) {
  return handle.db.insert(messages).values({
    organizationId: tenant.scope.organizationId,
    channelId: tenant.channelId,
    conversationId,
    direction: 'inbound',
    text: 'Hello?',
    status: 'received',
  })
}

const changed = (conversationId: string): InboxEvent => ({ type: 'conversation', conversationId })
const noSchedule = async () => undefined

describe('inbox events', () => {
  it("tells a new message and a pause to the organization's subscribers within 2 s, never another's", async () => {
    const hub = newHub()
    const [a, b] = await Promise.all([newTenant(), newTenant()])
    const [ofA, ofB] = [recorder(), recorder()]
    await hub.subscribe(a.scope.organizationId, ofA.listener)
    await hub.subscribe(b.scope.organizationId, ofB.listener)

    const sent = Date.now()
    await insertMessage(a, a.conversationId)
    expect(await ofA.until(1)).toEqual([changed(a.conversationId)])
    expect(ofA.heard[0].at - sent).toBeLessThan(2_000)

    await pauseConversation(a.scope, a.conversationId, {}, noSchedule)
    expect(await ofA.until(2)).toEqual([changed(a.conversationId), changed(a.conversationId)])
    await quiet(300)
    expect(ofB.heard).toEqual([])

    await resumeConversation(b.scope, b.conversationId)
    expect(await ofB.until(1)).toEqual([changed(b.conversationId)])
    await quiet(300)
    expect(ofA.heard).toHaveLength(2)
  })

  it("tells a message's status change (a reply sent, failed) as a change of its conversation", async () => {
    const hub = newHub()
    const tenant = await newTenant()
    await insertMessage(tenant, tenant.conversationId)
    const heard = recorder()
    await hub.subscribe(tenant.scope.organizationId, heard.listener)
    await handle.db
      .update(messages)
      .set({ status: 'failed' })
      .where(eq(messages.conversationId, tenant.conversationId))
    expect(await heard.until(1)).toEqual([changed(tenant.conversationId)])
  })

  it('gathers a burst of changes: one event per conversation', async () => {
    const hub = newHub({ coalesceMs: 250 })
    const tenant = await newTenant()
    const other = await newConversation(tenant.scope, tenant.channelId)
    const heard = recorder()
    await hub.subscribe(tenant.scope.organizationId, heard.listener)
    // One transaction, so that every notification reaches the listener at once, inside one window.
    await handle.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) {
        await tx
          .update(conversations)
          .set({ customerName: `Ann ${i}` })
          .where(eq(conversations.id, tenant.conversationId))
      }
      await tx.update(conversations).set({ customerName: 'Bob' }).where(eq(conversations.id, other))
    })
    await heard.until(2)
    await quiet(500)
    expect(heard.events()).toHaveLength(2)
    expect(heard.events()).toEqual(expect.arrayContaining([changed(tenant.conversationId), changed(other)]))
  })

  it('stops telling a subscriber that unsubscribed; the others still hear', async () => {
    const hub = newHub()
    const tenant = await newTenant()
    const [leaving, staying] = [recorder(), recorder()]
    const unsubscribe = await hub.subscribe(tenant.scope.organizationId, leaving.listener)
    await hub.subscribe(tenant.scope.organizationId, staying.listener)
    await insertMessage(tenant, tenant.conversationId)
    await Promise.all([leaving.until(1), staying.until(1)])

    unsubscribe()
    await insertMessage(tenant, tenant.conversationId)
    await staying.until(2)
    await quiet(300)
    expect(leaving.heard).toHaveLength(1)
  })

  it('tells every subscriber `closed` when the hub closes, and one that comes after', async () => {
    const hub = newHub()
    const tenant = await newTenant()
    const heard = recorder()
    await hub.subscribe(tenant.scope.organizationId, heard.listener)
    await hub.close()
    expect(heard.events()).toEqual([{ type: 'closed' }])
    const late = recorder()
    await hub.subscribe(tenant.scope.organizationId, late.listener)
    expect(late.events()).toEqual([{ type: 'closed' }])
  })

  it(
    onPostgres
      ? 'hears a change made by another process (a child process pausing the conversation through the service)'
      : 'hears a change made through the database (PGlite admits one process: made in this process)',
    async () => {
      const hub = newHub()
      const tenant = await newTenant()
      const heard = recorder()
      await hub.subscribe(tenant.scope.organizationId, heard.listener)
      let committedAt = Date.now()
      if (onPostgres) {
        committedAt = await pauseInChildProcess(tenant.scope, tenant.conversationId)
      } else {
        await pauseConversation(tenant.scope, tenant.conversationId, {}, noSchedule)
      }
      expect(await heard.until(1)).toEqual([changed(tenant.conversationId)])
      expect(heard.heard[0].at - committedAt).toBeLessThan(2_000)
    },
    30_000,
  )

  it.runIf(onPostgres)(
    'reconnects when its connection drops: logs it, tells `resync`, and hears changes again',
    async () => {
      const applicationName = `inbox events ${randomUUID().slice(0, 8)}`
      const hub = newHub({ applicationName })
      const tenant = await newTenant()
      const heard = recorder()
      await hub.subscribe(tenant.scope.organizationId, heard.listener)
      const killed = await handle.db.execute(
        sql`select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = ${applicationName}`,
      )
      expect(rowsOf(killed)).toHaveLength(1)
      expect(await heard.until(1, 5_000)).toEqual([{ type: 'resync' }])
      expect(logs.some((line) => line.includes('database listener lost its connection'))).toBe(true)
      expect(logs.some((line) => line.includes('database listener listening again'))).toBe(true)

      await insertMessage(tenant, tenant.conversationId)
      expect(await heard.until(2)).toEqual([{ type: 'resync' }, changed(tenant.conversationId)])
    },
    30_000,
  )
})

/**
 * `node --import tsx`: opens the database as the app does and pauses the conversation through the service; when
 * the change was committed, by the child's clock (the same machine's).
 */
async function pauseInChildProcess(scope: OrganizationScope, conversationId: string): Promise<number> {
  const script = `
    import { openDatabase } from './app/db/client.server.ts'
    import { requireOrganizationScope } from './app/services/organizations/scope.server.ts'
    import { pauseConversation } from './app/services/conversations/takeover.server.ts'
    const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '' })
    const scope = await requireOrganizationScope({
      db: handle.db, userId: process.env.USER_ID, organizationId: process.env.ORGANIZATION_ID,
    })
    await pauseConversation(scope, process.env.CONVERSATION_ID, {}, async () => {})
    console.log(JSON.stringify({ committedAt: Date.now() }))
    await handle.close()
  `
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: {
      ...process.env,
      USER_ID: scope.userId,
      ORGANIZATION_ID: scope.organizationId,
      CONVERSATION_ID: conversationId,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`the child process failed (${code}):\n${output}`)
  const committed = /\{"committedAt":(\d+)\}/.exec(output)
  if (!committed) throw new Error(`the child process did not say when it committed:\n${output}`)
  return Number(committed[1])
}
