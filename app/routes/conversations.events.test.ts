import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { conversations } from '~/db/schema'
import { commitSessionCookie } from '~/http/auth.server'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import { signUpWithEmail } from '~/services/auth/sign-in.server'
import { createOrganization } from '~/services/organizations/organizations.server'
import { requireOrganizationScope } from '~/services/organizations/scope.server'
import type { Runtime } from '~/runtime/runtime.server'
import { uniqueEmail } from '../../tests/setup/identity'
import { serveRoutes } from '../../tests/setup/route-server'
import { bootRuntime } from '../../tests/setup/runtime'
import { insertTestMetaChannel } from '../../tests/setup/tenant'
import * as eventsRoute from './conversations.events'
import * as attentionRoute from './conversations.attention'

// The event stream over real HTTP, with the process's runtime (its hub listening to the real database) and real
// sessions (the Auth emulator); changes are made in the database as any process would make them.
let runtime: Runtime
let http: Awaited<ReturnType<typeof serveRoutes>>
let booted: Awaited<ReturnType<typeof bootRuntime>>

beforeAll(async () => {
  http = await serveRoutes([
    [/^\/conversations\/events$/, eventsRoute],
    [/^\/conversations\/attention$/, attentionRoute],
  ])
  booted = await bootRuntime('inbox-events', {})
  runtime = booted.runtime
}, 90_000)
afterAll(async () => {
  await booted?.close()
  await http?.close()
})

/** A signed-in user (a session cookie), with an organization and a conversation in it unless `organization: false`. */
async function signedIn({ organization = true } = {}) {
  const db = runtime.database.db
  const { user, session } = await signUpWithEmail({
    db,
    identity: runtime.identity,
    email: uniqueEmail('events'),
    password: 'correct horse battery',
    displayName: 'Events',
  })
  const cookie = (await commitSessionCookie(session.id)).split(';')[0]
  if (!organization) return { cookie, conversationId: '' }
  const org = await createOrganization({ db, userId: user.id, name: 'Events Org' })
  const scope = await requireOrganizationScope({ db, userId: user.id, organizationId: org.id })
  const { channelId } = await insertTestMetaChannel(
    scope,
    { encryptionKey: runtime.config.encryptionKey },
    'facebook',
  )
  const [conversation] = await db
    .insert(conversations)
    .values({ organizationId: org.id, channelId, platformChatId: `chat-${randomUUID()}` })
    .returning({ id: conversations.id })
  return { cookie, conversationId: conversation.id }
}

const touch = (conversationId: string) =>
  runtime.database.db
    .update(conversations)
    .set({ customerName: `Ann ${randomUUID().slice(0, 4)}` })
    .where(eq(conversations.id, conversationId))

/** An open stream: its text so far, and a wait for text that matches. */
async function openStream(cookie: string) {
  const abort = new AbortController()
  const response = await fetch(`${http.url}${INBOX_LIVE.path}`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  })
  const body = response.body
  if (!body) throw new Error('no body')
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      text += value
    }
  })().catch(() => undefined)
  return {
    response,
    text: () => text,
    async until(pattern: RegExp, timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`not seen in ${timeoutMs} ms: ${pattern}; got:\n${text}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    async close() {
      abort.abort()
      await reading
    },
  }
}

const eventFor = (conversationId: string) =>
  new RegExp(`event: conversation\ndata: \\{"conversationId":"${conversationId}"\\}\n\n`)

describe(`GET ${INBOX_LIVE.path}`, () => {
  it('sends a signed-out visitor to sign in, as every page', async () => {
    const response = await fetch(`${http.url}${INBOX_LIVE.path}`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(
      `/login?${new URLSearchParams({ redirectTo: INBOX_LIVE.path })}`,
    )
  })

  it('answers 204 (EventSource stops) to a user without an organization', async () => {
    const { cookie } = await signedIn({ organization: false })
    const response = await fetch(`${http.url}${INBOX_LIVE.path}`, { headers: { cookie } })
    expect(response.status).toBe(204)
  })

  it("streams its organization's changes within 2 s, never another organization's", async () => {
    const [mine, theirs] = await Promise.all([signedIn(), signedIn()])
    const stream = await openStream(mine.cookie)
    try {
      expect(stream.response.status).toBe(200)
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform')
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no')
      await stream.until(new RegExp(`^retry: ${INBOX_LIVE.retryMs}\n\n`))

      await touch(theirs.conversationId)
      const sent = Date.now()
      await touch(mine.conversationId)
      await stream.until(eventFor(mine.conversationId))
      expect(Date.now() - sent).toBeLessThan(2_000)
      await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.coalesceMs * 2))
      expect(stream.text()).not.toContain(theirs.conversationId)
      expect(stream.text().match(/event: conversation/g)).toHaveLength(1)
    } finally {
      await stream.close()
    }
  })

  it('ends its subscription when the client goes away', async () => {
    const { cookie } = await signedIn()
    const ended = vi.fn()
    const subscribe = runtime.inboxEvents.subscribe.bind(runtime.inboxEvents)
    vi.spyOn(runtime.inboxEvents, 'subscribe').mockImplementation(async (organizationId, listener) => {
      const unsubscribe = await subscribe(organizationId, listener)
      return () => {
        ended()
        unsubscribe()
      }
    })
    const stream = await openStream(cookie)
    await stream.until(/^retry: /)
    expect(ended).not.toHaveBeenCalled()
    await stream.close()
    await vi.waitFor(() => expect(ended).toHaveBeenCalledTimes(1), { timeout: 2_000 })
  })
})

describe("GET /conversations/attention (the sidebar's count)", () => {
  const countFor = async (cookie?: string) => {
    const response = await fetch(`${http.url}${INBOX_LIVE.attentionPath}`, {
      headers: cookie ? { cookie } : {},
      redirect: 'manual',
    })
    return { status: response.status, body: response.status === 200 ? await response.json() : null }
  }
  const needsAttention = (conversationId: string) =>
    runtime.database.db
      .update(conversations)
      .set({ attentionReason: 'The reply could not be sent', attentionAt: new Date() })
      .where(eq(conversations.id, conversationId))

  it("counts the conversations of the session's organization that need a person, never another's", async () => {
    const mine = await signedIn()
    const theirs = await signedIn()
    expect(await countFor(mine.cookie)).toEqual({ status: 200, body: { count: 0 } })
    await needsAttention(theirs.conversationId)
    expect(await countFor(mine.cookie)).toEqual({ status: 200, body: { count: 0 } })
    await needsAttention(mine.conversationId)
    expect(await countFor(mine.cookie)).toEqual({ status: 200, body: { count: 1 } })
    expect(await countFor(theirs.cookie)).toEqual({ status: 200, body: { count: 1 } })
  })

  it('answers 0 without an organization, and sends a signed-out visitor to sign in', async () => {
    const { cookie } = await signedIn({ organization: false })
    expect(await countFor(cookie)).toEqual({ status: 200, body: { count: 0 } })
    expect((await countFor()).status).toBe(302)
  })
})
