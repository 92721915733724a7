#!/usr/bin/env node
/**
 * The inbox's own queries at scale (issue 16): the list, its filters, its search and one conversation, through
 * the real services (`listConversations`, `getConversation`) on a throwaway PostgreSQL 15 cluster.
 *
 * Reproduce: `npm run bench:inbox` (a few minutes, seeding included; no build needed).
 *  1. A throwaway cluster (scripts/lib/postgres.js: Debian's binaries, fsync off, default memory settings) is
 *     brought to the current schema by `openDatabase` (the migrations).
 *  2. Seeding, in bulk SQL (generate_series, insert … select): 10 organizations holding BENCH_CONVERSATIONS
 *     (100,000) conversations and BENCH_MESSAGES (1,000,000) messages, the largest organization half of them,
 *     the others 15,000 down to 500 conversations; each organization has an owner, an agent and 3 to 12
 *     channels (Telegram, Facebook, WhatsApp). A conversation has 1 to 40 messages (mean 10, most short), both
 *     directions, 1 to 20 minutes apart, its last one at a time spread over the last 90 days; a message is 1 to
 *     3 short sentences out of 200,000 made from a vocabulary of 4,000 words at Zipf frequencies (chat words
 *     first, made-up words for the long tail). An outbound message is the agent's (with its run in agent_runs)
 *     or a person's (in paused conversations, and now and then elsewhere). About 2% of the conversations are
 *     paused (half of them until a time) and 1% need attention (their last message failed). Those the AI
 *     answers whose last message is over 2 days old are resolved (about 97%: a long-lived organization's), and
 *     one conversation in ten is assigned to the organization's member; one in twenty is labelled "vip" and
 *     one in five "refund".
 *     The messages go in in time order, in one INSERT: the inbox's own statement-level trigger then keeps every
 *     conversation's summary (its last message, search words...) in one UPDATE, as it does for a webhook's batch,
 *     so the seed holds what the application would have written. The conversations' row trigger (live-update
 *     notifications) is off meanwhile; foreign keys stay checked. VACUUM ANALYZE then leaves the tables as a
 *     settled database's (statistics, visibility map, GIN pending lists merged; no autovacuum while measuring).
 *  3. Each query runs BENCH_SAMPLES (240) times after BENCH_WARMUP (20) calls, for the largest organization and
 *     for the smallest, one call at a time, timed around the service call (its statements, which it runs in
 *     parallel on the pool, and the mapping of rows):
 *       list      listConversations, first page of 50, no filter;
 *       filtered  the same by channel and state, by channel only, by state only and by status only (open,
 *                 resolved): every channel, state and status; the views Mine (open, and any status) and
 *                 Unassigned (open), by label (vip; refund and open), and the views' counts (countViews);
 *       search    the same with a search (prefix match on every word): rare words, medium ones, common ones,
 *                 and two words;
 *       open      getConversation with its last 50 messages: a random conversation, and a long one (30-40).
 *  4. Printed: p50/p95/p99 per query and organization, pass/fail against the targets (p95 under 50 ms for the
 *     list and the filtered list, 200 ms for a search, 20 ms to open a conversation), each variant's p95, and
 *     EXPLAIN (ANALYZE, BUFFERS) of the statements of the variant furthest over (or closest to) its target,
 *     run again with the parameters of its slowest call.
 * Exit code 1 when a target is missed. BENCH_KEEP=1 keeps the cluster running at the end for a look with psql
 * (its URL is printed; Ctrl-C stops and removes it).
 */
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import { openDatabase, type Database } from '../app/db/client.server'
import * as schema from '../app/db/schema'
import { agents, channels, memberships, organizations, users } from '../app/db/schema'
import {
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_STATES,
  CONVERSATION_STATUSES,
  type ConversationFilters,
} from '../app/lib/conversations/conversations'
import { countViews } from '../app/services/conversations/assignment.server'
import { getConversation, listConversations } from '../app/services/conversations/inbox.server'
import { requireOrganizationScope } from '../app/services/organizations/scope.server'
import { finishBench, runBench } from './report'
import { startThrowawayPostgres } from '../scripts/lib/postgres.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS) || 100_000
const MESSAGES = Number(process.env.BENCH_MESSAGES) || 1_000_000
const SAMPLES = Number(process.env.BENCH_SAMPLES) || 240
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20)
/** Each organization's share of the conversations, in thousandths: the largest holds half. */
const ORGANIZATION_SHARES = [500, 150, 100, 80, 60, 40, 30, 20, 15, 5]
const MAX_MESSAGES = 40
/**
 * A conversation's message count is min(40, 1 + floor(40 · u^k)) for u uniform: most are short, a few long
 * (about 0.8% have 40). With this k the mean is 10.0; the seed then adds or takes one message here and there to
 * hit the total exactly.
 */
const LENGTH_SKEW = 3.25
/** The "long conversation" variant of opening one. */
const LONG = 30
const DAYS = 90
const VOCABULARY_SIZE = 4_000
const SENTENCES = 200_000
const PAUSED = 0.02
const NEEDS_ATTENTION = 0.01

type Query = 'list' | 'filtered' | 'search' | 'open'
const QUERIES: Query[] = ['list', 'filtered', 'search', 'open']
const TARGET_MS: Record<Query, number> = { list: 50, filtered: 50, search: 200, open: 20 }
const LABEL: Record<Query, string> = {
  list: 'list, first page',
  filtered: 'list by channel and state',
  search: 'list by text search',
  open: 'open a conversation',
}

/** A support chat's most frequent words, most frequent first: the head of the Zipf vocabulary. */
const CHAT_WORDS = `i you the to a and is my it for can do have what of in be this your we me on with how when
  will not are please thanks hello hi yes no ok order that there just get need want know help time today tomorrow
  here about at so send did would like still could delivery price where why am was an if but or all any one new as
  from up out by back sure thank good great card account payment size colour available address number email phone
  store shipping refund return cancel change check status week days morning evening later soon again already
  confirm orders ordered product products item items box parcel courier tracking invoice receipt discount code
  cash transfer bank paid pay cost free open closed hours monday friday weekend street city delivered delay late
  wrong broken damaged missing exchange warranty model black white red blue small medium large ticket booking
  table appointment menu reservation photo picture link website app login password subscription plan premium`
/** The searches, by how often their words occur (the rare ones are made-up words of the long tail). */
const SEARCHES = {
  common: ['order', 'delivery', 'price', 'help'],
  medium: ['refund', 'invoice', 'courier', 'warranty'],
  'two words': ['delivery tomorrow', 'order refund', 'payment card', 'size available'],
}
const RARE_RANKS = [3_800, 3_850, 3_900, 3_950, 3_990]
const FIRST_NAMES = `Ann Ben Chloe Dan Eva Farid Grace Hugo Ines Jon Kira Leo Maya Nina Omar Pia Raj Sara Tom Una
  Vera Will Yara Zoe Ali Bea Carl Dina Emil Fay`
const ATTENTION_REASONS = [
  'The model did not answer in time',
  'Telegram: Forbidden: bot was blocked by the user',
  'WhatsApp: re-engagement message (outside the 24-hour window)',
  'The customer asked for a person',
]

type Organization = {
  id: string
  ord: number
  size: number
  userId: string
  agentId: string
  channelIds: string[]
}

/** A deterministic generator (mulberry32), so that every run builds the same vocabulary. */
function prng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** The chat words, then made-up words of two to four syllables for the long tail, all distinct. */
function vocabulary(): string[] {
  const random = prng(16)
  const onsets = [
    'b',
    'd',
    'f',
    'g',
    'k',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'z',
    'br',
    'st',
    'tr',
    'ch',
  ]
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou']
  const codas = ['', '', '', 'n', 'r', 's', 'l', 'x']
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]
  const words = [...new Set(CHAT_WORDS.split(/\s+/).filter(Boolean))]
  const seen = new Set(words)
  while (words.length < VOCABULARY_SIZE) {
    const syllables = 2 + Math.floor(random() * 3)
    let word = ''
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels)
    word += pick(codas)
    // Searches match prefixes: a made-up word neither starts with a longer word of the vocabulary nor begins one.
    const clashes = words.some((w) => (w.length > 2 && word.startsWith(w)) || w.startsWith(word))
    if (!seen.has(word) && !clashes) {
      seen.add(word)
      words.push(word)
    }
  }
  return words
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const since = (startedAt: number) => `${fmt((performance.now() - startedAt) / 1000, 1)} s`

/** Organizations, their owners, agents and channels: few rows, through Drizzle. */
async function seedOrganizations(db: Database): Promise<Organization[]> {
  const result: Organization[] = []
  let platformIds = 7_000_000_000
  const platforms = ['telegram', 'facebook', 'whatsapp'] as const
  const channelTypes = {
    telegram: 'telegram_bot',
    facebook: 'facebook_page',
    whatsapp: 'whatsapp_number',
  } as const
  for (const [i, share] of ORGANIZATION_SHARES.entries()) {
    const size = Math.round((CONVERSATIONS * share) / 1000)
    const [org] = await db
      .insert(organizations)
      .values({ name: `Bench ${i + 1} (${fmt(size)} conversations)` })
      .returning({ id: organizations.id })
    const [user] = await db
      .insert(users)
      .values({
        firebaseUid: `bench-${i + 1}`,
        email: `owner${i + 1}@bench.example.com`,
        displayName: `Owner ${i + 1}`,
      })
      .returning({ id: users.id })
    await db.insert(memberships).values({ organizationId: org.id, userId: user.id, role: 'owner' })
    const [agent] = await db
      .insert(agents)
      .values({
        organizationId: org.id,
        readableId: 'support',
        name: 'Support',
        systemPrompt: 'You help customers.',
      })
      .returning({ id: agents.id })
    // The largest organization has 12 channels, the others 3 to 6.
    const count = i === 0 ? 12 : 3 + (i % 4)
    const rows = await db
      .insert(channels)
      .values(
        Array.from({ length: count }, (_, c) => ({
          organizationId: org.id,
          platformName: platforms[c % 3],
          channelType: channelTypes[platforms[c % 3]],
          platformChannelId: String(++platformIds),
          accessTokenEncrypted: 'bench',
          agentId: agent.id,
          metadata: { name: `${platforms[c % 3]} ${c + 1}` },
        })),
      )
      .returning({ id: channels.id })
    result.push({
      id: org.id,
      ord: i + 1,
      size,
      userId: user.id,
      agentId: agent.id,
      channelIds: rows.map((row) => row.id),
    })
  }
  return result
}

/** Conversations, agent runs and messages in bulk SQL on one connection (its temporary tables and settings). */
async function seedConversations(pool: pg.Pool, orgs: Organization[]) {
  const client = await pool.connect()
  const step = async (label: string, text: string, params: unknown[] = []) => {
    const startedAt = performance.now()
    const result = await client.query(text, params)
    console.log(`  ${label}: ${since(startedAt)}`)
    return result
  }
  try {
    // This connection only: memory for the seed's sorts and hashes (it is closed afterwards).
    // GIN indexes take the bulk writes in larger batches (VACUUM merges what is left).
    await client.query(
      `set work_mem = '256MB'; set maintenance_work_mem = '512MB'; set gin_pending_list_limit = '64MB'`,
    )
    await client.query(
      `create temp table bench_orgs as
       select * from json_to_recordset($1::json)
         as o(org_id uuid, ord int, size int, user_id uuid, agent_id uuid, channel_ids uuid[])`,
      [
        JSON.stringify(
          orgs.map((o) => ({
            org_id: o.id,
            ord: o.ord,
            size: o.size,
            user_id: o.userId,
            agent_id: o.agentId,
            channel_ids: o.channelIds,
          })),
        ),
      ],
    )
    await client.query(
      `create temp table bench_vocabulary as
       select rank::int, word from unnest($1::text[]) with ordinality as v(word, rank)`,
      [vocabulary()],
    )
    // Word ranks drawn log-uniformly: P(rank r) ∝ log(1 + 1/r), Zipf's law. Computed before the join (a
    // volatile join key would be drawn again for every pair).
    await step(
      `${fmt(SENTENCES)} sentences`,
      `create temp table bench_sentences as
       with picks as materialized (
         select s.id, w.pos, least($2, floor(exp(random() * ln($2 + 1)))::int) as rank
         from generate_series(1, $1::int) s(id)
         cross join lateral generate_series(1, 3 + floor(random() * 8)::int + 0 * s.id) w(pos)
       ), sentences as (
         select p.id, string_agg(v.word, ' ' order by p.pos) as body
         from picks p join bench_vocabulary v using (rank) group by p.id
       )
       select id, upper(left(body, 1)) || substr(body, 2) || case when random() < 0.3 then '?' else '.' end as body
       from sentences`,
      [SENTENCES, VOCABULARY_SIZE],
    )
    await step(
      `${fmt(CONVERSATIONS)} conversations drawn`,
      `create temp table bench_threads as
       select gen_random_uuid() as id, o.org_id, o.user_id, o.agent_id,
         o.channel_ids[1 + floor(random() * cardinality(o.channel_ids))::int] as channel_id,
         (o.ord * 10000000 + g)::text as chat_id,
         ($1::text[])[1 + floor(random() * cardinality($1::text[]))::int] || ' '
           || chr(65 + floor(random() * 26)::int) || '.' as customer_name,
         least($2::int, 1 + floor($2::int * power(random(), $3::float8))::int) as n,
         (1 + floor(random() * 20)::int) * interval '1 minute' as gap,
         random() as state_draw, random() as draw
       from bench_orgs o cross join lateral generate_series(1, o.size) g`,
      [FIRST_NAMES.split(/\s+/).filter(Boolean), MAX_MESSAGES, LENGTH_SKEW],
    )
    // Exactly MESSAGES messages: one more (or fewer) for as many conversations as the draw missed by.
    await client.query(
      `with missing as (select $1::int - sum(n)::int as d from bench_threads),
       pick as (
         select t.id from bench_threads t, missing
         where (d > 0 and t.n < $2) or (d < 0 and t.n > 1)
         order by random() limit (select abs(d) from missing)
       )
       update bench_threads t set n = t.n + sign((select d from missing))::int from pick where t.id = pick.id`,
      [MESSAGES, MAX_MESSAGES],
    )
    await client.query(
      `alter table bench_threads add column state text, add column first_at timestamptz,
         add column last_at timestamptz, add column reason text`,
    )
    await client.query(
      `update bench_threads set
         state = case when state_draw < $2 then 'needs_attention' when state_draw < $2 + $3 then 'paused' else 'ai' end,
         first_at = now() - random() * ($1 * interval '1 day' - (n - 1) * gap),
         reason = ($4::text[])[1 + floor(draw * cardinality($4::text[]))::int]`,
      [DAYS, NEEDS_ATTENTION, PAUSED, ATTENTION_REASONS],
    )
    await client.query(`update bench_threads set last_at = first_at + (n - 1) * gap`)
    await client.query(`analyze bench_threads`)
    const [{ total }] = (await client.query(`select sum(n)::int as total from bench_threads`)).rows
    if (total !== MESSAGES) throw new Error(`${total} messages drawn instead of ${MESSAGES}`)
    await client.query(`alter table conversations disable trigger user`)
    await step(
      'conversations inserted',
      `insert into conversations (id, organization_id, channel_id, platform_chat_id, customer_name, created_at,
         ai_paused_at, ai_paused_until, ai_paused_by, attention_reason, attention_at)
       select id, org_id, channel_id, chat_id, customer_name, first_at,
         case when state = 'paused' then first_at + (n / 2) * gap end,
         case when state = 'paused' and draw < 0.5 then now() + draw * interval '2 days' end,
         case when state = 'paused' then user_id end,
         case when state = 'needs_attention' then reason end,
         case when state = 'needs_attention' then last_at end
       from bench_threads`,
    )
    // Every message's draws first (one row each), so that the agent runs and the messages agree.
    await step(
      `${fmt(MESSAGES)} messages drawn`,
      `create temp table bench_messages as
       with drawn as materialized (
         select t.id as conversation_id, t.org_id, t.channel_id, t.chat_id, t.customer_name, t.user_id, t.agent_id,
           t.state, t.reason, t.n, k,
           t.first_at + (k - 1) * t.gap + random() * interval '30 seconds' as created_at,
           case when k = 1 or (t.state = 'needs_attention' and k = t.n) or random() < 0.45
             then 'inbound' else 'outbound' end as direction,
           (t.state = 'paused' and k > t.n / 2) or random() < 0.03 as by_person,
           1 + floor(random() * $1)::int as s1,
           case when random() < 0.6 then 1 + floor(random() * $1)::int end as s2,
           case when random() < 0.2 then 1 + floor(random() * $1)::int end as s3,
           random() as draw
         from bench_threads t cross join lateral generate_series(1, t.n) k
       )
       select *, case when direction = 'outbound' and not by_person then gen_random_uuid() end as run_id from drawn`,
      [SENTENCES],
    )
    await client.query(`analyze bench_messages; analyze bench_sentences`)
    await step(
      'agent runs inserted',
      `insert into agent_runs (id, execution_id, organization_id, agent_id, input, output, model_used,
         prompt_tokens, completion_tokens, total_tokens, latency_ms, created_at)
       select run_id, 'bench-' || run_id, org_id, agent_id, 'bench', 'bench', 'gpt-4o-mini',
         p, c, p + c, 600 + floor(draw * 2400)::int, created_at - interval '1 second'
       from (select *, 300 + floor(draw * 900)::int as p, 20 + floor(draw * 180)::int as c from bench_messages) m
       where run_id is not null`,
    )
    await step(
      "messages inserted (in time order; the summary trigger's one UPDATE included)",
      `insert into messages (organization_id, channel_id, conversation_id, direction, platform_message_id,
         sender_id, sender_name, text, status, failure_reason, agent_run_id, author_user_id, sent_parts,
         platform_sent_at, received_at, created_at)
       select m.org_id, m.channel_id, m.conversation_id, m.direction, m.chat_id || ':' || m.k,
         case when m.direction = 'inbound' then m.chat_id end,
         case when m.direction = 'inbound' then m.customer_name end,
         s1.body || coalesce(' ' || s2.body, '') || coalesce(' ' || s3.body, ''),
         case
           when m.direction = 'inbound' and m.state = 'needs_attention' and m.k = m.n then 'failed'
           when m.direction = 'inbound' and m.by_person then 'received'
           when m.direction = 'inbound' then 'replied'
           else (array['sent', 'delivered', 'read'])[1 + floor(m.draw * 3)::int]
         end,
         case when m.direction = 'inbound' and m.state = 'needs_attention' and m.k = m.n then m.reason end,
         m.run_id,
         case when m.direction = 'outbound' and m.by_person then m.user_id end,
         case when m.direction = 'outbound' then 1 else 0 end,
         case when m.direction = 'inbound' then m.created_at - interval '1 second' else m.created_at end,
         case when m.direction = 'inbound' then m.created_at end,
         m.created_at
       from bench_messages m
       join bench_sentences s1 on s1.id = m.s1
       left join bench_sentences s2 on s2.id = m.s2
       left join bench_sentences s3 on s3.id = m.s3
       order by m.created_at`,
    )
    // After the messages: a customer's message opens a conversation again (the summary trigger).
    await step(
      'conversations resolved (those the AI answers, quiet for 2 days)',
      `update conversations set status = 'resolved', resolved_at = last_message_at + interval '1 day'
       where state = 'ai' and last_message_at < now() - interval '2 days'`,
    )
    // A team's share: about one conversation in ten assigned to the organization's member (Mine), the rest not.
    await step(
      'conversations assigned (one in ten)',
      `update conversations c set assignee_id = m.user_id from memberships m
       where m.organization_id = c.organization_id and abs(hashtext(c.id::text)) % 10 = 0`,
    )
    // Labels: one conversation in twenty labelled "vip", one in five "refund" (a common and a rarer label).
    await step(
      'labels (vip, refund)',
      `insert into conversation_labels (organization_id, conversation_id, label)
       select organization_id, id, 'vip' from conversations where abs(hashtext(id::text || 'v')) % 20 = 0
       union all
       select organization_id, id, 'refund' from conversations where abs(hashtext(id::text || 'r')) % 5 = 0`,
    )
    await client.query(`alter table conversations enable trigger user`)
    const [{ missing }] = (
      await client.query(`select count(*)::int as missing from conversations where last_message_text is null`)
    ).rows
    if (missing !== 0) throw new Error(`${missing} conversations without their summary`)
  } finally {
    // Not back to the pool: its settings and temporary tables go with it.
    client.release(true)
  }
  const startedAt = performance.now()
  await pool.query('vacuum analyze')
  console.log(`  vacuum analyze: ${since(startedAt)}`)
}

type Variant = { group: string; run: () => Promise<unknown>; explain: () => Promise<unknown> }
type Sample = { ms: number; variant: Variant }

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

async function main() {
  console.log(
    `bench:inbox: ${fmt(CONVERSATIONS)} conversations, ${fmt(MESSAGES)} messages, ${ORGANIZATION_SHARES.length} ` +
      `organizations (the largest ${ORGANIZATION_SHARES[0] / 10}%), ${SAMPLES} calls per query and organization ` +
      `after ${WARMUP}`,
  )
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const postgres = await startThrowawayPostgres()
  // Interrupted (Ctrl-C, a closed terminal): the cluster goes too, not left running in the background.
  let stopping: Promise<void> | undefined
  const stop = () => (stopping ??= postgres.stop())
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)))
  }
  const failures: string[] = []
  try {
    const handle = await openDatabase({
      databaseUrl: postgres.url,
      dataDir: ROOT,
      migrationsFolder: path.join(ROOT, 'app/db/migrations'),
    })
    const pool = handle.pool
    if (!pool) throw new Error('Expected PostgreSQL')
    try {
      const seedStartedAt = performance.now()
      console.log('\nseeding:')
      const orgs = await seedOrganizations(handle.db)
      await seedConversations(pool, orgs)
      const sizes = (
        await pool.query<{ table: string; rows: string; size: string }>(
          `select relname as table, reltuples::bigint::text as rows,
             pg_size_pretty(pg_total_relation_size(oid)) as size
           from pg_class where relname in ('conversations', 'messages', 'agent_runs') order by relname`,
        )
      ).rows
      console.log(
        `seeded in ${since(seedStartedAt)}: ` +
          sizes.map((s) => `${s.table} ${fmt(Number(s.rows))} rows, ${s.size}`).join('; '),
      )
      const settings = (
        await pool.query<{ version: string; shared_buffers: string; work_mem: string; jit: string }>(
          `select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
             current_setting('work_mem') as work_mem, current_setting('jit') as jit`,
        )
      ).rows[0]
      console.log(
        `PostgreSQL ${settings.version}: shared_buffers ${settings.shared_buffers}, work_mem ${settings.work_mem}, ` +
          `jit ${settings.jit}`,
      )

      // The same statements through a Drizzle instance that records them, for EXPLAIN.
      let recorded: { query: string; params: unknown[] }[] = []
      const recorder = drizzle(pool, {
        schema,
        logger: { logQuery: (query, params) => void recorded.push({ query, params }) },
      })
      const vocabularyWords = vocabulary()
      const rare = RARE_RANKS.map((rank) => vocabularyWords[rank - 1])
      const searches: Record<string, string[]> = { rare, ...SEARCHES }

      const measured = [orgs[0], orgs[orgs.length - 1]]
      const results: {
        query: Query
        org: string
        sorted: number[]
        groups: Map<string, number[]>
        worst: Map<string, Sample>
      }[] = []
      for (const org of measured) {
        const orgLabel = `${fmt(org.size)} conv.`
        const scope = await requireOrganizationScope({
          db: handle.db,
          userId: org.userId,
          organizationId: org.id,
        })
        const recording = await requireOrganizationScope({
          db: recorder,
          userId: org.userId,
          organizationId: org.id,
        })
        const list = (filters: ConversationFilters) => ({
          run: () => listConversations(scope, { ...filters, page: 1, pageSize: CONVERSATION_PAGE_SIZE }),
          explain: () =>
            listConversations(recording, { ...filters, page: 1, pageSize: CONVERSATION_PAGE_SIZE }),
        })
        const open = (id: string) => ({
          run: () => getConversation(scope, id),
          explain: () => getConversation(recording, id),
        })
        const ids = (
          await pool.query<{ id: string; long: boolean }>(
            `(select id, false as long from conversations where organization_id = $1 order by random() limit 200)
             union all
             (select c.id, true from conversations c where c.organization_id = $1
                and (select count(*) from messages m where m.conversation_id = c.id) >= $2
              order by random() limit 200)`,
            [org.id, LONG],
          )
        ).rows
        const variants: Record<Query, Variant[][]> = {
          list: [[{ group: 'no filter', ...list({}) }]],
          filtered: [
            ...CONVERSATION_STATES.map((state) =>
              org.channelIds.map((channelId) => ({
                group: `channel + ${state}`,
                ...list({ channelId, state }),
              })),
            ),
            org.channelIds.map((channelId) => ({ group: 'channel only', ...list({ channelId }) })),
            ...CONVERSATION_STATES.map((state) => [{ group: `${state} only`, ...list({ state }) }]),
            ...CONVERSATION_STATUSES.map((status) => [{ group: `${status} only`, ...list({ status }) }]),
            // The views (issue 33): Mine and Unassigned of the open ones, and their counts.
            [{ group: 'mine, open', ...list({ assignee: 'me', status: 'open' }) }],
            [{ group: 'mine, any status', ...list({ assignee: 'me' }) }],
            [{ group: 'unassigned, open', ...list({ assignee: 'none', status: 'open' }) }],
            [{ group: 'label vip (1 in 20)', ...list({ label: 'vip' }) }],
            [{ group: 'label refund, open', ...list({ label: 'refund', status: 'open' }) }],
            [
              {
                group: 'view counts',
                run: () => countViews(scope),
                explain: () => countViews(recording),
              },
            ],
          ],
          search: Object.entries(searches).map(([group, words]) =>
            words.map((q) => ({ group: `${group} (${words.join(', ')})`, ...list({ q }) })),
          ),
          open: [
            ids.filter((c) => !c.long).map((c) => ({ group: 'random conversation', ...open(c.id) })),
            ids
              .filter((c) => c.long)
              .map((c) => ({ group: `${LONG}-${MAX_MESSAGES} messages`, ...open(c.id) })),
          ],
        }
        // How many of this organization's conversations each search finds (the service's own total).
        const frequencies: string[] = []
        for (const [group, words] of Object.entries(searches)) {
          const totals: number[] = []
          for (const q of words) {
            totals.push(
              (await listConversations(scope, { q, page: 1, pageSize: CONVERSATION_PAGE_SIZE })).total,
            )
          }
          frequencies.push(`${group} ${totals.map((n) => fmt(n)).join('/')}`)
        }
        const orgMessages = Math.round((MESSAGES * ORGANIZATION_SHARES[orgs.indexOf(org)]) / 1000)
        console.log(
          `\norganization with ${orgLabel} (about ${fmt(orgMessages)} messages, ${org.channelIds.length} channels); ` +
            `conversations found by the searches: ${frequencies.join('; ')}`,
        )
        for (const query of QUERIES) {
          const groups = variants[query].filter((g) => g.length > 0)
          const pick = (i: number) => {
            const group = groups[i % groups.length]
            return group[Math.floor(i / groups.length) % group.length]
          }
          for (let i = 0; i < WARMUP; i++) await pick(i).run()
          const samples: Sample[] = []
          for (let i = 0; i < SAMPLES; i++) {
            const variant = pick(i)
            const startedAt = performance.now()
            await variant.run()
            samples.push({ ms: performance.now() - startedAt, variant })
          }
          const byGroup = new Map<string, number[]>()
          const worst = new Map<string, Sample>()
          for (const sample of samples) {
            const group = sample.variant.group
            byGroup.set(group, [...(byGroup.get(group) ?? []), sample.ms])
            if ((worst.get(group)?.ms ?? -1) < sample.ms) worst.set(group, sample)
          }
          for (const list of byGroup.values()) list.sort((a, b) => a - b)
          results.push({
            query,
            org: orgLabel,
            sorted: samples.map((s) => s.ms).sort((a, b) => a - b),
            groups: byGroup,
            worst,
          })
          const last = results[results.length - 1]
          console.log(
            `  ${LABEL[query]}: p50 ${fmt(percentile(last.sorted, 50), 1)} ms, ` +
              `p95 ${fmt(percentile(last.sorted, 95), 1)} ms, p99 ${fmt(percentile(last.sorted, 99), 1)} ms`,
          )
        }
      }

      console.log(
        `\n| query | organization | calls | p50 ms | p95 ms | p99 ms | target p95 | |\n|---|---|---|---|---|---|---|---|`,
      )
      for (const r of results) {
        const p95 = percentile(r.sorted, 95)
        const pass = p95 < TARGET_MS[r.query]
        if (!pass)
          failures.push(
            `${LABEL[r.query]}, ${r.org}: p95 ${fmt(p95, 1)} ms (target ${TARGET_MS[r.query]} ms)`,
          )
        console.log(
          `| ${LABEL[r.query]} | ${r.org} | ${r.sorted.length} | ${fmt(percentile(r.sorted, 50), 1)} | ` +
            `${fmt(p95, 1)} | ${fmt(percentile(r.sorted, 99), 1)} | < ${TARGET_MS[r.query]} | ${pass ? 'pass' : 'FAIL'} |`,
        )
      }
      console.log('\np95 by variant (ms):')
      let slowest: { ratio: number; label: string; sample: Sample } | undefined
      for (const r of results) {
        const parts: string[] = []
        for (const [group, times] of r.groups) {
          const p95 = percentile(times, 95)
          parts.push(`${group} ${fmt(p95, 1)} (${times.length})`)
          const ratio = p95 / TARGET_MS[r.query]
          const sample = r.worst.get(group)
          if (sample && (!slowest || ratio > slowest.ratio)) {
            slowest = { ratio, label: `${LABEL[r.query]}, ${r.org}, ${group}: p95 ${fmt(p95, 1)} ms`, sample }
          }
        }
        console.log(`  ${LABEL[r.query]}, ${r.org}: ${parts.join('; ')}`)
      }
      if (slowest) {
        console.log(
          `\nslowest against its target: ${slowest.label} (${fmt(slowest.ratio * 100)}% of the target); ` +
            `its slowest call took ${fmt(slowest.sample.ms, 1)} ms. EXPLAIN (ANALYZE, BUFFERS) of its statements:`,
        )
        recorded = []
        await slowest.sample.variant.explain()
        for (const [i, statement] of recorded.entries()) {
          const plan = await pool.query<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers) ${statement.query}`,
            statement.params,
          )
          console.log(
            `\n-- statement ${i + 1} of ${recorded.length}: ${statement.query.replace(/\s+/g, ' ')}`,
          )
          console.log(`-- parameters: ${JSON.stringify(statement.params)}`)
          console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'))
        }
      }
    } finally {
      await handle.close()
    }
    if (process.env.BENCH_KEEP === '1') {
      console.log(`\nBENCH_KEEP=1: the cluster stays up at ${postgres.url} until Ctrl-C`)
      await new Promise<void>(() => setInterval(() => undefined, 60_000))
    }
  } finally {
    await stop()
  }
  finishBench(failures, 'All targets met.')
}

runBench(main)
