/**
 * Analytics test data in bulk SQL (generate_series, insert … select) for bench:analytics and the dashboard's
 * Lighthouse run: organization 0 (in `timeZone`) has 3 agents and 12 Telegram channels (or `agents`, `channels`), `conversations`
 * conversations started over the last 30 days and about `messages` messages; each of `otherOrganizations` others
 * has 1 agent, 3 channels, 2,000 conversations and about 40,000 messages. A conversation is 1 to 20 exchanges 1 to
 * 20 minutes apart: the customer writes, then (85%) the agent answers 2 to 60 s later with a run (tokens; 80% on a
 * priced model, 20% on one without a price; 1% of runs hand over), or (5%) a person answers while the AI is
 * paused, or the message failed (3%), was left to a person with no agent (5%), or while paused with no answer
 * (2%). 2% more runs are the Agents screen's tests. Each organization has an owner (a user and a membership).
 */

/** Runs SQL (several statements allowed) and answers the rows of the last one. */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>

export type SeedSizes = {
  conversations: number
  messages: number
  otherOrganizations: number
  timeZone: string
  /** Organization 0's agents and channels (default 3 and 12). */
  agents?: number
  channels?: number
  /**
   * What the messages and customers read like (bench/screenshots.ts); default: every customer writes "Hello,
   * where is my order?", every answer is "It is on its way." and conversations have no customer name. A
   * conversation's exchanges go through the pairs in order from a point drawn from its id; the customer's name
   * is a first name and a last name drawn from the two lists.
   */
  texts?: SeedTexts
}

export type SeedTexts = {
  /** [the customer's message, the answer] */
  exchanges: [string, string][]
  firstNames: string[]
  lastNames: string[]
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`
const array = (texts: string[]) => `array[${texts.map(literal).join(', ')}]`

const since = (startedAt: number) => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`

export type SeededOrg = { id: string; userId: string; agentIds: string[]; channelIds: string[] }

export async function seedAnalytics(run: RunSql, sizes: SeedSizes): Promise<SeededOrg> {
  const { conversations, messages, otherOrganizations, timeZone, texts } = sizes
  const agentCount = sizes.agents ?? 3
  const channelCount = sizes.channels ?? 12
  // The n-th exchange of a conversation: pair 1 + (hash of its id + n) mod pairs.
  const pair = (side: 0 | 1, fallback: string) =>
    texts
      ? `(${array(texts.exchanges.map((e) => e[side]))})[1 + ((hashtext(conversation_id::text)::int8 + k) % ${texts.exchanges.length} + ${texts.exchanges.length}) % ${texts.exchanges.length}]`
      : literal(fallback)
  const customerName = texts
    ? `(${array(texts.firstNames)})[1 + floor(random() * ${texts.firstNames.length})::int] || ' ' ||
       (${array(texts.lastNames)})[1 + floor(random() * ${texts.lastNames.length})::int]`
    : 'null'
  const step = async (label: string, text: string) => {
    const startedAt = performance.now()
    const rows = await run(text)
    console.log(`  ${label}: ${since(startedAt)}`)
    return rows
  }
  await run(`set work_mem = '256MB'; set maintenance_work_mem = '512MB'`)
  // Organization 0 is the large one. Messages per exchange: 1.9 on average (85% + 5% have an answer).
  const exchanges = Math.round(messages / 1.9)
  await step(
    'organizations, owners, agents, channels',
    `create temp table bench_orgs as
     select o as ord, gen_random_uuid() as org_id, gen_random_uuid() as user_id,
       case when o = 0 then ${conversations} else 2000 end as conversations,
       case when o = 0 then ${exchanges} else 21000 end as exchanges
     from generate_series(0, ${otherOrganizations}) o;
     insert into organizations (id, name, time_zone)
       select org_id, 'Bench ' || ord, case when ord = 0 then '${timeZone}' else 'UTC' end from bench_orgs;
     insert into users (id, firebase_uid, email) select user_id, 'bench-' || ord, 'o' || ord || '@bench.example.com' from bench_orgs;
     insert into memberships (organization_id, user_id, role) select org_id, user_id, 'owner' from bench_orgs;
     create temp table bench_agents as
       select o.org_id, a, gen_random_uuid() as agent_id from bench_orgs o
       cross join lateral generate_series(1, case when o.ord = 0 then ${agentCount} else 1 end) a;
     insert into agents (id, organization_id, readable_id, name, system_prompt)
       select agent_id, org_id, 'agent-' || a, 'Agent ' || a, 'You help.' from bench_agents;
     create temp table bench_channels as
       select o.org_id, c, gen_random_uuid() as channel_id,
         (select agent_id from bench_agents b where b.org_id = o.org_id
            and b.a = 1 + (c % case when o.ord = 0 then ${agentCount} else 1 end)) as agent_id
       from bench_orgs o cross join lateral generate_series(1, case when o.ord = 0 then ${channelCount} else 3 end) c;
     insert into channels (id, organization_id, platform_name, platform_channel_id, channel_type, agent_id,
         access_token_encrypted, metadata)
       select channel_id, org_id, 'telegram', (8000000000 + row_number() over ())::text, 'telegram_bot', agent_id,
         'bench', json_build_object('name', 'Bot ' || c)::jsonb from bench_channels`,
  )
  await step(
    'conversations drawn',
    `create temp table bench_threads as
     select gen_random_uuid() as id, o.org_id, o.user_id,
       (array_agg(ch.channel_id order by ch.c))[1 + floor(random() * count(*))::int] as channel_id,
       'chat-' || o.ord || '-' || g as chat_id,
       now() - interval '30 days' + random() * interval '29 days' as first_at,
       o.exchanges::float8 / o.conversations as mean_exchanges
     from bench_orgs o
     cross join lateral generate_series(1, o.conversations) g
     join bench_channels ch on ch.org_id = o.org_id
     group by o.org_id, o.user_id, o.ord, g, o.exchanges, o.conversations`,
  )
  await run(`alter table conversations disable trigger user`)
  await step(
    'conversations inserted',
    `insert into conversations (id, organization_id, channel_id, platform_chat_id, customer_name, created_at)
     select id, org_id, channel_id, chat_id, ${customerName}, first_at from bench_threads`,
  )
  await step(
    'exchanges drawn',
    `create temp table bench_exchanges as
     select t.id as conversation_id, t.org_id, t.channel_id, t.user_id, t.chat_id, k,
       t.first_at + (k - 1) * (1 + floor(random() * 20)::int) * interval '1 minute' as at,
       random() as outcome, random() as draw,
       gen_random_uuid() as inbound_id, gen_random_uuid() as run_id,
       (select agent_id from bench_channels c where c.channel_id = t.channel_id) as agent_id
     from bench_threads t
     cross join lateral generate_series(1, greatest(1, round(random() * 2 * t.mean_exchanges)::int)) k`,
  )
  await run(`analyze bench_exchanges`)
  await step(
    'agent runs inserted',
    `insert into agent_runs (id, execution_id, organization_id, agent_id, input, output, model_used,
       prompt_tokens, completion_tokens, total_tokens, latency_ms, handoff_reason, context, created_at)
     select run_id, 'bench-' || run_id, org_id, agent_id, 'bench', 'bench',
       case when draw < 0.8 then 'gpt-4o-mini' else 'local-llama' end,
       300 + floor(draw * 900)::int, 20 + floor(draw * 180)::int, 320 + floor(draw * 1080)::int, 900,
       case when draw < 0.01 then 'The customer asked for a person' end,
       json_build_object('channelId', channel_id, 'conversationId', conversation_id)::jsonb,
       at + interval '1 second'
     from bench_exchanges where outcome < 0.85
     union all
     select gen_random_uuid(), 'bench-test-' || gen_random_uuid(), org_id, agent_id, 'test', 'test', 'gpt-4o-mini',
       500, 100, 600, 900, null, null, at
     from bench_exchanges where draw > 0.98`,
  )
  await step(
    'messages inserted (in time order; the summary trigger included)',
    `insert into messages (id, organization_id, channel_id, conversation_id, direction, platform_message_id,
       sender_id, text, status, failure_reason, agent_run_id, author_user_id, reply_to_message_id, sent_parts,
       platform_sent_at, received_at, created_at)
     select * from (
       select inbound_id, org_id, channel_id, conversation_id, 'inbound', chat_id || ':' || k || 'i', chat_id,
         ${pair(0, 'Hello, where is my order?')},
         case when outcome < 0.85 then 'replied' when outcome < 0.90 then 'received' when outcome < 0.93 then 'failed'
           when outcome < 0.98 then 'received' else 'received' end,
         case when outcome < 0.85 then null when outcome < 0.90 then 'The AI is paused: a person is answering'
           when outcome < 0.93 then 'The model did not answer in time'
           when outcome < 0.98 then 'No agent is assigned to this channel'
           else 'The AI is paused: a person is answering' end,
         null::uuid, null::uuid, null::uuid, 0, at - interval '1 second', at, at
       from bench_exchanges
       union all
       select gen_random_uuid(), org_id, channel_id, conversation_id, 'outbound', chat_id || ':' || k || 'o', null,
         ${pair(1, 'It is on its way.')}, 'sent', null,
         case when outcome < 0.85 then run_id end,
         case when outcome >= 0.85 then user_id end,
         case when outcome < 0.85 then inbound_id end,
         1, at + (2 + draw * 58) * interval '1 second', null, at + (2 + draw * 58) * interval '1 second'
       from bench_exchanges where outcome < 0.90
     ) m order by 17`,
  )
  await run(`alter table conversations enable trigger user`)
  const [big] = (await run(
    `select o.org_id as id, o.user_id as "userId",
         (select array_agg(agent_id order by a) from bench_agents b where b.org_id = o.org_id) as "agentIds",
         (select array_agg(channel_id order by c) from bench_channels c where c.org_id = o.org_id) as "channelIds"
       from bench_orgs o where o.ord = 0`,
  )) as SeededOrg[]
  return big
}
