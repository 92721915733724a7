import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { conversations, messages } from '~/db/schema'
import { CONVERSATION_TEXTS } from '~/lib/conversations/conversations'
import { csvLine } from '~/lib/shared/csv'
import { AppError } from '~/utils/errors'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { insertTestMetaChannel } from '../../../tests/setup/tenant'
import { conversationsCsv, conversationTranscript } from './export.server'

const db = withTestDatabase()

async function tenantWithChannel() {
  const scope = await newOwnerScope(db())
  const { channelId } = await insertTestMetaChannel(scope, { encryptionKey: 'a'.repeat(64) }, 'facebook')
  return { scope, channelId }
}

/** `count` conversations in one statement, their last messages a minute apart, the newest now. */
async function seedConversations(organizationId: string, channelId: string, count: number) {
  await db().execute(sql`
    insert into ${conversations} (organization_id, channel_id, platform_chat_id, customer_name,
      last_message_at, last_message_text, last_message_direction)
    select ${organizationId}::uuid, ${channelId}::uuid, 'chat-' || n, 'Customer ' || n,
      now() - n * interval '1 minute', 'Message number ' || n, 'inbound'
    from generate_series(1, ${count}) n`)
}

describe('csvLine', () => {
  it('quotes what needs quoting and keeps a formula from running', () => {
    expect(csvLine(['plain', 42, null, 'a, b', 'say "hi"', 'two\nlines'])).toBe(
      'plain,42,,"a, b","say ""hi""","two\nlines"\r\n',
    )
    expect(csvLine(['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', 'fine = ok'])).toBe(
      `"'=HYPERLINK(""http://x"")",'+1,'-2,'@SUM(A1),fine = ok\r\n`,
    )
  })
})

describe('conversationsCsv (issue 33)', () => {
  it('writes 100,000 conversations a batch at a time, each once, reading as it writes', async () => {
    const { scope, channelId } = await tenantWithChannel()
    const other = await tenantWithChannel()
    await seedConversations(scope.organizationId, channelId, 100_000)
    await seedConversations(other.scope.organizationId, other.channelId, 10)

    const lines = conversationsCsv(scope, {})
    const header = await lines.next()
    expect(header.value).toMatch(/^Customer,Customer ID,Channel,Platform,Status,State,/)
    const first = await lines.next()
    expect(first.value.split('\r\n')[0]).toMatch(
      /^Customer 1,chat-1,.*,facebook,Open,AI answering,.*,Customer,/,
    )
    // Added after the first batch was written, older than every other: a reader that read everything before
    // writing would leave it out.
    await db().execute(sql`
      insert into ${conversations} (organization_id, channel_id, platform_chat_id, customer_name, last_message_at)
      values (${scope.organizationId}, ${channelId}, 'late', 'Late Customer', now() - interval '1 year')`)

    const heapAtStart = process.memoryUsage().heapUsed
    let peak = heapAtStart
    const seen = new Uint8Array(100_001) // by the N of chat-N: a Set of 100,000 ids would weigh on the heap measured
    let rows = 0
    let last = ''
    // Read as a client would: each piece looked at, then dropped.
    for (let piece: IteratorResult<string> = first; !piece.done; piece = await lines.next()) {
      for (const line of piece.value.split('\r\n')) {
        if (!line) continue
        rows += 1
        const chat = /^[^,]*,chat-(\d+),/.exec(line)
        if (chat) seen[Number(chat[1])] += 1
        last = line
      }
      peak = Math.max(peak, process.memoryUsage().heapUsed)
    }
    expect(rows).toBe(100_001)
    expect(seen.slice(1).every((times) => times === 1)).toBe(true)
    expect(last).toMatch(/^Late Customer,late,/)
    // The whole file is about 12 MB of text; held at once (with its rows) it would be several times that.
    expect(peak - heapAtStart).toBeLessThan(48 * 1024 * 1024)
  }, 120_000)

  it('keeps to the filters and to the organization', async () => {
    const { scope, channelId } = await tenantWithChannel()
    await seedConversations(scope.organizationId, channelId, 3)
    await db().execute(
      sql`update ${conversations} set status = 'resolved' where organization_id = ${scope.organizationId} and platform_chat_id = 'chat-2'`,
    )
    const resolved = (await collect(conversationsCsv(scope, { status: 'resolved' }))).join('')
    expect(
      resolved
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['Customer 2'])
    const words = (await collect(conversationsCsv(scope, { q: 'number' }))).join('')
    expect(words.split('\r\n').filter(Boolean)).toHaveLength(1) // no message was stored: nothing matches
  })
})

describe('conversationTranscript', () => {
  it("writes the messages oldest first, a line each; another organization's conversation is not found", async () => {
    const { scope, channelId } = await tenantWithChannel()
    const [conversation] = await db()
      .insert(conversations)
      .values({ organizationId: scope.organizationId, channelId, platformChatId: 'c1', customerName: 'Ann' })
      .returning({ id: conversations.id })
    await db()
      .insert(messages)
      .values(
        ['Hello', 'Hi Ann!\nHow can I help?', 'Where is my order?'].map((text, i) => ({
          organizationId: scope.organizationId,
          channelId,
          conversationId: conversation.id,
          direction: i === 1 ? ('outbound' as const) : ('inbound' as const),
          platformMessageId: `m${i}`,
          text,
          status: i === 1 ? ('sent' as const) : ('received' as const),
          createdAt: new Date(Date.UTC(2026, 10, 27, 9, i)),
        })),
      )
    const { customer, lines } = await conversationTranscript(scope, conversation.id, 2)
    expect(customer).toBe('Ann')
    expect((await collect(lines)).join('')).toBe(
      '[2026-11-27 09:00] Ann: Hello\n' +
        '[2026-11-27 09:01] Us: Hi Ann!\n    How can I help?\n' +
        '[2026-11-27 09:02] Ann: Where is my order?\n',
    )

    const stranger = await newOwnerScope(db())
    for (const id of [conversation.id, 'not-an-id']) {
      const refused = await conversationTranscript(stranger, id).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(AppError)
      expect((refused as AppError).message).toBe(CONVERSATION_TEXTS.notFound)
    }
  })
})

async function collect(pieces: AsyncIterator<string>, onPiece?: () => void): Promise<string[]> {
  const out: string[] = []
  for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
    out.push(next.value)
    onPiece?.()
  }
  return out
}
