import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { rowsOf } from '~/db/rows.server'
import type { KnowledgeHit } from '~/lib/knowledge/knowledge'
import { customerWordsOf } from './customer-words.server'
import { isKnownWord, isPhrase, queryWordGroups, thesaurusWith, wordsOf } from './query-words'

/** Trigram similarity a word of the question needs to be read as a typo of a word of the passages. */
const TYPO_SIMILARITY = 0.45
/** A correction by trigrams shares this many first letters with the word at least (docs/decisions/075). */
const STEM_LETTERS = 5
/** A lexeme in more than this share of the passages does not pick candidates (it still scores them). */
const COMMON_SHARE = 0.5
/** A lexeme longer than this also matches by its first letters, weighted PREFIX_WEIGHT. */
const PREFIX_LETTERS = 5
const PREFIX_WEIGHT = 0.7
/** Passages scored exactly, out of those the first ranking (index only) puts first. */
const PRELIMINARY_CANDIDATES = 100
/** Passage visits the first ranking may make (sum of its lexemes' passage counts), rarest lexemes first. */
const PICKING_BUDGET = 2_500
/** BM25's term-frequency saturation and length normalisation (their usual values). */
const BM25_K1 = 1.2
const BM25_B = 0.75
/** A lexeme in the title or headings (weight A: an FAQ's question) counts this much more. */
const TITLE_BONUS = 0.5
/**
 * What a passage's heading (an FAQ's question) written like the customer's question adds to its score, times pg_trgm's
 * similarity of the two texts (0-1): customers ask in the words of a shop's FAQ questions more than in those of its
 * answers, and the likeness catches word forms and typos the lexemes miss.
 */
const HEADING_LIKENESS = 0.4
/** Passages of one source before the others' are preferred (docs/decisions/043). */
const MAX_PER_SOURCE = 3

export type PassageSearch = {
  organizationId: string
  query: string
  limit: number
  /** Only these sources (an agent's selection); undefined: all of the organization's. */
  sourceIds?: string[]
  /** 0-1: passages scoring less are left out. */
  minRelevance?: number
  /** The organization's "words your customers use", when the caller read them already; else read here. */
  customerWords?: string[][]
}

type HitRow = {
  passage_id: string
  source_id: string
  title: string
  heading_path: string[]
  text: string
  url: string | null
  score: number
}

/**
 * The organization's passages that answer a question best, without any model (docs/decisions/043): the question's
 * words (with their alternatives, typos corrected to the nearest word of the passages by pg_trgm) are stemmed in
 * each language of the sources, and a passage scores the share of the question's weight it holds — each word
 * weighted by its rarity among the passages (BM25's inverse document frequency) and how often the passage says it
 * (BM25's saturating term frequency), more when it is in the title or headings, a common word little
 * (docs/decisions/075). One statement; the candidates come from the GIN index of the passages' vectors.
 */
export async function searchPassages(db: Database, search: PassageSearch): Promise<KnowledgeHit[]> {
  const statement = await searchStatement(db, search)
  if (!statement) return []
  const rows = rowsOf<HitRow>(await db.execute(statement))
  return rows.map((row) => ({
    passageId: row.passage_id,
    sourceId: row.source_id,
    title: row.title,
    headingPath: row.heading_path,
    text: row.text,
    url: row.url,
    score: Number(row.score),
  }))
}

/** The search's statement for a question (its typos corrected first); null when it has no words. */
export async function searchStatement(
  db: Database,
  { organizationId, query, limit, sourceIds, minRelevance = 0, customerWords }: PassageSearch,
) {
  if (limit < 1) return null
  const thesaurus = thesaurusWith(customerWords ?? (await customerWordsOf(db, organizationId)))
  const words = wordsOf(query, thesaurus)
  const keep = (word: string) => isPhrase(word) || isKnownWord(thesaurus, word)
  const groups = queryWordGroups(words, await correctTypos(db, organizationId, words, keep), thesaurus)
  if (groups.length === 0) return null
  const group: number[] = []
  const word: string[] = []
  const weight: number[] = []
  groups.forEach((g, index) => {
    for (const w of g.words) {
      group.push(index)
      word.push(w.word)
      weight.push(w.weight)
    }
  })
  const sources = sourceIds ? sql`and p.source_id = any(${`{${sourceIds.join(',')}}`}::uuid[])` : sql``
  return sql`
      with q as (
        select * from unnest(${`{${group.join(',')}}`}::int[], ${toTextArray(word)}::text[],
          ${`{${weight.join(',')}}`}::float8[]) as q(grp, word, weight)
      ),
      fixed as (select grp, weight, word from q),
      langs as (
        select distinct s.language from knowledge_sources s
        where s.organization_id = ${organizationId} and s.language is not null
      ),
      grouped_stems as (
        select l.lexeme, f.grp, max(f.weight) as weight
        from fixed f cross join langs g
          cross join lateral unnest(tsvector_to_array(to_tsvector(g.language::regconfig, f.word || ' ' || unaccent(f.word)))) as l(lexeme)
        -- A quote or backslash would need escaping in a tsquery: such rare lexemes are left out.
        where l.lexeme !~ '[''\\\\]'
        group by l.lexeme, f.grp
      ),
      -- A lexeme counts in one group only, the one that weighs it most (the first on a tie): "delivery" in both
      -- "shipping" and "shipping cost" would otherwise count a passage's one word twice.
      stems as (
        select distinct on (lexeme) lexeme, grp, weight from grouped_stems order by lexeme, weight desc, grp
      ),
      -- The stemmer leaves some forms apart ("delivery" deliveri, "delivered" deliv): a long lexeme's first
      -- letters also match, as a prefix, for a little less.
      lex as (
        select lexeme, grp, weight, false as prefix from stems
        union all
        select start, grp, max(weight) * ${PREFIX_WEIGHT}::float8, true
        from (select left(lexeme, ${PREFIX_LETTERS}::int) as start, grp, weight from stems) s
        -- A number is not matched by its first digits: 12345 is not 1234599.
        where length(start) = ${PREFIX_LETTERS}::int and start !~ '[0-9]'
          and not exists (select 1 from stems e where e.lexeme = s.start)
        group by start, grp
      ),
      total as (
        select greatest(coalesce(sum(s.passage_count), 0), 1)::float8 as n
        from knowledge_sources s where s.organization_id = ${organizationId}
      ),
      raw_terms as (
        select lex.grp, lex.weight, k.df, t.n, lex.lexeme, lex.prefix,
          -- A word no passage holds weighs as much as the rarest word that one does: it cannot tell passages
          -- apart, but a question mostly about things the knowledge lacks is not relevant to any passage.
          ln(1 + (t.n - greatest(k.df, 1) + 0.5) / (greatest(k.df, 1) + 0.5)) as idf,
          ('''' || lex.lexeme || '''' || case when lex.prefix then ':*' else '' end)::tsquery as any_q
        from lex cross join total t
          cross join lateral (
            select least(coalesce(sum(k.passages), 0), t.n)::float8 as df from knowledge_lexemes k
            where k.organization_id = ${organizationId}
              and (k.lexeme = lex.lexeme
                or lex.prefix and k.lexeme >= lex.lexeme and k.lexeme < lex.lexeme || chr(1114111)
                  and starts_with(k.lexeme, lex.lexeme))
          ) k
      ),
      terms as (
        select t.grp, t.weight, t.df, t.n, t.lexeme, t.prefix, t.any_q,
          case when t.weight < 1 then least(t.idf, coalesce((select max(o.idf) from raw_terms o
            where o.grp = t.grp and o.weight >= 1), t.idf)) else t.idf end as idf
        from raw_terms t
      ),
      groups as (select grp, max(idf * weight) as best from terms group by grp),
      -- The lexemes that pick candidates: the rarest first (by weight), while their passages add up to at most
      -- PICKING_BUDGET (always at least one); lexemes in half of the passages or more only when nothing else is.
      picking_terms as (
        select * from (
          select t.*, sum(t.df) over (order by t.idf * t.weight desc, t.df, t.any_q::text) as running
          from terms t
          where t.df > 0 and (t.df < t.n * ${COMMON_SHARE}::float8
            or not exists (select 1 from terms r where r.df > 0 and r.df < r.n * ${COMMON_SHARE}::float8))
        ) ranked
        where running - df < ${PICKING_BUDGET}::float8
      ),
      -- A first, cheap ranking from the GIN index alone (the passages' vectors are not read): the weights of the
      -- groups each passage holds. Only the best of them are scored exactly.
      prelim as (
        select h.id, sum(h.best) as weight from (
          select p.id, t.grp, max(t.idf * t.weight) as best
          from picking_terms t
            join knowledge_passages p on p.search_vector @@ t.any_q
          where p.organization_id = ${organizationId} ${sources}
          group by p.id, t.grp
        ) h
        group by h.id
        order by weight desc, h.id
        limit ${PRELIMINARY_CANDIDATES}::int
      ),
      -- Materialized with the vectors read once (a stored vector is toasted: each match below would read it again).
      candidates as materialized (
        select p.id, p.source_id, s.title, p.heading_path, p.text, p.url,
          p.search_vector || ''::tsvector as search_vector, length(p.search_vector)::float8 as len
        from prelim join knowledge_passages p on p.id = prelim.id join knowledge_sources s on s.id = p.source_id
      ),
      -- The question's lexemes each candidate holds, read from its vector once: how often (BM25's term frequency)
      -- and whether in the title or headings (weight A). A prefix lexeme has PREFIX_LETTERS letters: it matches the
      -- lexemes that start with it. Two branches, each a hash join on one key: a single join on both keys of each
      -- lexeme (itself and its first letters) took 12.6 ms for this CTE at 20,000 passages, these two 7.8 ms.
      wanted as (select distinct lexeme, prefix from terms),
      matches as materialized (
        select c.id, t.lexeme, t.prefix, cardinality(u.positions) as tf, 'A' = any(u.weights) as in_title
        from candidates c cross join lateral unnest(c.search_vector) u
          join wanted t on t.lexeme = u.lexeme and not t.prefix
        union all
        select c.id, t.lexeme, t.prefix, cardinality(u.positions), 'A' = any(u.weights)
        from candidates c cross join lateral unnest(c.search_vector) u
          join wanted t on t.lexeme = left(u.lexeme, ${PREFIX_LETTERS}::int) and t.prefix
      ),
      -- Each group counts once, by its best lexeme: the lexeme's weight (rarity) times BM25's saturating term
      -- frequency (a word said three times says more than once, not three times more) and length normalisation
      -- (a word found in a short passage, an FAQ answer, says more than in a long one), more in the title.
      group_scores as (
        select h.id, t.grp, max(t.idf * t.weight * ${BM25_K1 + 1}::float8
          * (h.tf / (h.tf + c.k) + ${TITLE_BONUS}::float8 * h.in_title::int / (1 + c.k))) as best
        from (
          select id, lexeme, prefix, sum(tf)::float8 as tf, bool_or(in_title) as in_title
          from matches group by id, lexeme, prefix
        ) h
          join terms t on t.lexeme = h.lexeme and t.prefix = h.prefix
          join (
            select id, ${BM25_K1}::float8 * (1 - ${BM25_B}::float8
              + ${BM25_B}::float8 * len / (select greatest(avg(len), 1) from candidates)) as k
            from candidates
          ) c on c.id = h.id
        group by h.id, t.grp
      ),
      -- Materialized: the score is computed once per candidate, not again for the filter and the order.
      scored as materialized (
        select c.*,
          coalesce(g.score, 0) / (select sum(best) * ${1 + TITLE_BONUS}::float8 from groups)
          -- A heading (an FAQ's question) written like the question: pg_trgm's similarity of the two texts.
          + ${HEADING_LIKENESS}::float8
            * similarity(coalesce(c.heading_path[cardinality(c.heading_path)], c.title), ${query}) as rank
        from candidates c
          left join (select id, sum(best) as score from group_scores group by id) g on g.id = c.id
      ),
      -- A source's passages after its MAX_PER_SOURCE best come after the other sources' (a long document whose
      -- title holds the question's words would otherwise fill every place, crowding out the FAQ that answers it).
      ranked as (
        select sc.*,
          -- Between equal scores, the shorter passage (it says it more directly), then a fixed order.
          row_number() over (partition by sc.source_id order by sc.rank desc, sc.len, sc.id) as nth
        from scored sc
        where least(sc.rank, 1) >= ${minRelevance}::float8
      )
      select r.id as passage_id, r.source_id, r.title, r.heading_path, r.text, r.url,
        round(least(r.rank, 1)::numeric, 4)::float8 as score
      from ranked r
      order by r.nth > ${MAX_PER_SOURCE}::int, r.rank desc, r.len, r.id
      limit ${limit}::int
    `
}

/**
 * The question's words with each typo replaced by the nearest word of the organization's passages. A word the
 * passages hold, a word of the lists (isKnownWord), a number, or a word shorter than four letters stays as it is.
 * A correction must look like a slip of the keys, not another word (docs/decisions/075): "presidente" is not
 * "presente", "festa" not "feita". So, by edit distance among the words of the same first letter: in a word of ten
 * letters or more, two letters wrong, missing or extra (the correction at most one letter shorter); of six to nine
 * letters, one, or two neighbours swapped ("retrun"); of four or five, only a missing letter ("gogle"), a plural's
 * "s" or an accent ("ipads", "dias"). Or, by trigram similarity, another form or a compound of the word: alike,
 * and the same first letters (all but the shorter's last three, five at least), or one holding the other whole
 * ("Fahrradtasche", "Fahrrad").
 */
async function correctTypos(
  db: Database,
  organizationId: string,
  words: string[],
  keep: (word: string) => boolean,
): Promise<string[]> {
  const fix = words.filter((word) => !keep(word))
  if (fix.length === 0) return words
  const rows = rowsOf<{ word: string }>(
    await db.execute(sql`
      select coalesce(
        (select w.word from knowledge_words w where w.organization_id = ${organizationId} and w.word = q.word),
        (select c.word from (
          select w.word from knowledge_words w
          where w.organization_id = ${organizationId} and w.word % q.word
            and similarity(w.word, q.word) >= ${TYPO_SIMILARITY}::float8
            and (left(w.word, greatest(${STEM_LETTERS}::int, least(length(w.word), length(q.word)) - 3))
                = left(q.word, greatest(${STEM_LETTERS}::int, least(length(w.word), length(q.word)) - 3))
              or least(length(w.word), length(q.word)) >= ${STEM_LETTERS}::int
                and (strpos(w.word, q.word) > 0 or strpos(q.word, w.word) > 0))
          union
          select w.word from knowledge_words w
          where w.organization_id = ${organizationId}
            and w.word >= left(q.word, 1) and w.word < chr(ascii(left(q.word, 1)) + 1)
            and length(w.word) between length(q.word) - 1 and length(q.word) + 2
            and case
              when length(q.word) >= 10 then levenshtein_less_equal(w.word, q.word, 2) <= 2
              when length(q.word) >= 6 then levenshtein_less_equal(w.word, q.word, 2) <= 1
                or length(w.word) = length(q.word) and levenshtein_less_equal(w.word, q.word, 2) = 2
                  and ${sortedLetters(sql`w.word`)} = ${sortedLetters(sql`q.word`)}
              else length(w.word) = length(q.word) + 1 and levenshtein_less_equal(w.word, q.word, 1) = 1
                or w.word || 's' = q.word or unaccent(w.word) = unaccent(q.word)
            end
        ) c
        -- A number is never corrected: another number is another fact.
        where length(q.word) >= 4 and q.word !~ '[0-9]'
        order by levenshtein(c.word, q.word), similarity(c.word, q.word) desc, c.word
        limit 1),
        q.word) as word
      from unnest(${toTextArray(fix)}::text[]) with ordinality as q(word, n)
      order by q.n`),
  )
  const corrected = rows.map((row) => row.word)
  return words.map((word) => (keep(word) ? word : corrected.shift()!))
}

/** A word's letters in order ("retrun" and "return" are both "enrrtu"): two swapped letters leave them alike. */
const sortedLetters = (word: SQL) =>
  sql`array(select l from regexp_split_to_table(${word}, '') as l order by l)`

/** A PostgreSQL text[] literal (each element quoted; the words hold letters and digits only). */
function toTextArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`
}
