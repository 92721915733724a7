import { OUTBOUND_MESSAGE_STATUSES } from '~/lib/conversations/conversations'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { genericPlan, indexesReadOn } from '../../../tests/setup/plans'
import { startPipeline, type Pipeline } from '../../../tests/setup/pipeline'
import { ingestBatchQuery } from './ingest/batch.server'
import { replyContextQuery } from './reply/queries.server'

// The hot path's statements are prepared once per connection and often planned while a table still looks empty
// (a new installation, a bench). An index partial on direction = 'inbound' (analytics') then looks as cheap as
// the right one, and a lookup that it serves reads every inbound message: ingest fell to a third of its
// baseline. These check the plans PostgreSQL keeps, here where the test database's tables are nearly empty.
let p: Pipeline
beforeAll(async () => {
  p = await startPipeline({ worker: false })
})
afterAll(async () => {
  await p.close()
})

describe('the hot path keeps plans on its keys, whatever the statistics say', () => {
  it("ingest probes for a message's stored copy by the unique key", async () => {
    const plan = await genericPlan(p.db, ingestBatchQuery(p.jobs), ["'[]'", "'[]'", "'paused'"])
    expect(indexesReadOn(plan, 'messages')).toEqual(['messages_channel_platform_message_idx'])
  })

  it("the reply's context reads the conversation's messages by conversation and sequence", async () => {
    // Its lookups leave the direction out because only inbound messages are ever queued.
    expect(OUTBOUND_MESSAGE_STATUSES).not.toContain('queued')
    const plan = await genericPlan(p.db, replyContextQuery(p.db), ['null', 'null', 'null', 'null'])
    const read = indexesReadOn(plan, 'messages')
    expect(read.filter((index) => index.startsWith('messages_inbound_'))).toEqual([])
    expect(
      read.filter((index) => index === 'messages_conversation_sequence_idx').length,
    ).toBeGreaterThanOrEqual(3)
  })
})
