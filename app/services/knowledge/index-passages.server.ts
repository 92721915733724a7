import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import { knowledgeSources, type KnowledgeSource } from '~/db/schema'
import { detectTextLanguage } from '~/integrations/language/detect.server'

// Writes and removes a source's passages with the search's bookkeeping (docs/decisions/043): the per-organization
// lexeme counts (for the words' weights) and words (for typo correction) change in the same transaction as the
// passages, under a per-organization lock (two jobs of one organization would otherwise update the same counts
// in different orders).

/**
 * PostgreSQL's text search configuration (stemming and stop words) of each language ELD detects that has one (all
 * in PostgreSQL 15 and PGlite; Malay reads as Indonesian). A language without one is indexed with `simple`: its
 * words as they are, which typo correction's trigrams and the prefix match still relate (issue 36).
 */
const CONFIGURATION_OF: Record<string, string> = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  ms: 'indonesian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
}

/** The configurations tried when detection is not sure: the one leaving the fewest lexemes is the language. */
const GUESSED_CONFIGURATIONS = [
  'english',
  'german',
  'french',
  'spanish',
  'italian',
  'portuguese',
  'dutch',
  'swedish',
  'danish',
  'norwegian',
  'finnish',
  'russian',
  'turkish',
  'hungarian',
  'romanian',
] as const

const LANGUAGE_SAMPLE_CHARS = 6_000

export type PassageToIndex = {
  headingPath: string[]
  text: string
  url?: string | null
  /** The embedding model's vector, when one is configured and answered (docs/decisions/043). */
  embedding?: number[]
}

export type SourceIndexResult = { passageCount: number; language: string }

const lockOrganization = (tx: Database, organizationId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext('knowledge:' || ${organizationId}))`)

/** Lowers the lexeme counts by a source's passages (before they are deleted or replaced). */
async function uncountPassages(tx: Database, organizationId: string, sourceId: string) {
  await tx.execute(sql`
    with old as (
      select l.lexeme, count(*)::int as n
      from knowledge_passages p cross join unnest(tsvector_to_array(p.search_vector)) as l(lexeme)
      where p.source_id = ${sourceId} and p.organization_id = ${organizationId}
      group by l.lexeme
    )
    update knowledge_lexemes k set passages = k.passages - old.n
    from old where k.organization_id = ${organizationId} and k.lexeme = old.lexeme`)
  await tx.execute(
    sql`delete from knowledge_lexemes where organization_id = ${organizationId} and passages <= 0`,
  )
}

/** The source's text search configuration: ELD's language when it is sure, else the best guess of PostgreSQL's. */
async function detectLanguage(tx: Database, sample: string): Promise<string> {
  const detected = await detectTextLanguage(sample)
  if (detected) return CONFIGURATION_OF[detected] ?? 'simple'
  const [row] = rowsOf<{ language: string }>(
    await tx.execute(sql`
      select c as language
      from unnest(${`{${GUESSED_CONFIGURATIONS.join(',')}}`}::text[]) with ordinality as t(c, n)
      order by length(to_tsvector(c::regconfig, ${sample})), n
      limit 1`),
  )
  return row?.language ?? 'english'
}

/**
 * Replaces a source's passages and marks it ready, if the source is still at `revision` (a later change or re-fetch has its own
 * job): null when it is not (nothing written). The title and headings are weighted A, the text D.
 */
export async function replaceSourcePassages(
  db: Database,
  {
    organizationId,
    sourceId,
    revision,
    title,
    passages,
    sizeBytes,
    pages,
  }: {
    organizationId: string
    sourceId: string
    revision: number
    title: string
    passages: PassageToIndex[]
    sizeBytes: number
    /** A web source's pages as read (kept as they were when undefined). */
    pages?: KnowledgeSource['pages']
  },
): Promise<SourceIndexResult | null> {
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId)
    const [current] = rowsOf<{ id: string }>(
      await tx.execute(sql`
        select id from knowledge_sources
        where id = ${sourceId} and organization_id = ${organizationId} and revision = ${revision}
        for update`),
    )
    if (!current) return null
    const sample = `${title}\n${passages.map((p) => p.text).join('\n')}`.slice(0, LANGUAGE_SAMPLE_CHARS)
    const language = await detectLanguage(tx, sample)
    await uncountPassages(tx, organizationId, sourceId)
    await tx.execute(sql`delete from knowledge_passages where source_id = ${sourceId}`)
    const json = JSON.stringify(
      passages.map((p, position) => ({
        position,
        headingPath: p.headingPath,
        text: p.text,
        url: p.url ?? null,
        embedding: p.embedding ?? null,
      })),
    )
    await tx.execute(sql`
      insert into knowledge_passages (source_id, organization_id, position, heading_path, text, url, embedding,
        search_vector)
      select ${sourceId}, ${organizationId}, (x->>'position')::int,
        array(select jsonb_array_elements_text(x->'headingPath')), x->>'text', x->>'url',
        case when jsonb_typeof(x->'embedding') = 'array'
          then array(select e::real from jsonb_array_elements_text(x->'embedding') with ordinality as v(e, n) order by n)
        end,
        knowledge_vector(${language}::regconfig,
          ${title} || ' ' || array_to_string(array(select jsonb_array_elements_text(x->'headingPath')), ' '), 'A')
        || knowledge_vector(${language}::regconfig, x->>'text', 'D')
      from jsonb_array_elements(${json}::jsonb) as x`)
    await tx.execute(sql`
      insert into knowledge_lexemes (organization_id, lexeme, passages)
      select ${organizationId}, l.lexeme, count(*)::int
      from knowledge_passages p cross join unnest(tsvector_to_array(p.search_vector)) as l(lexeme)
      where p.source_id = ${sourceId}
      group by l.lexeme
      order by l.lexeme
      on conflict (organization_id, lexeme) do update set passages = knowledge_lexemes.passages + excluded.passages`)
    await tx.execute(sql`
      insert into knowledge_words (organization_id, word)
      select distinct ${organizationId}::uuid, w.word
      from knowledge_passages p
        cross join unnest(tsvector_to_array(to_tsvector('simple',
          ${title} || ' ' || array_to_string(p.heading_path, ' ') || ' ' || p.text))) as w(word)
      where p.source_id = ${sourceId} and length(w.word) between 3 and 40
      on conflict do nothing`)
    await tx
      .update(knowledgeSources)
      .set({
        status: 'ready',
        failureReason: null,
        passageCount: passages.length,
        language,
        sizeBytes,
        processedAt: new Date(),
        ...(pages !== undefined && { pages }),
      })
      .where(eq(knowledgeSources.id, sourceId))
    return { passageCount: passages.length, language }
  })
}

/** Deletes a source and its passages at once (retrieval never finds them again), with their counts. */
export async function deleteSourceWithPassages(db: Database, organizationId: string, sourceId: string) {
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId)
    const [source] = await tx
      .select({ id: knowledgeSources.id })
      .from(knowledgeSources)
      .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.organizationId, organizationId)))
      .for('update')
    if (!source) return false
    await uncountPassages(tx, organizationId, sourceId)
    const deleted = rowsOf<{ id: string }>(
      await tx.execute(sql`
        delete from knowledge_sources where id = ${sourceId} and organization_id = ${organizationId}
        returning id`),
    )
    return deleted.length > 0
  })
}
