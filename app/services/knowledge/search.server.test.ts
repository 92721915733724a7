import { eq, sql } from 'drizzle-orm'
import { rowsOf } from '~/db/rows.server'
import { describe, expect, it } from 'vitest'
import { knowledgeSources } from '~/db/schema'
import type { Database } from '~/db/client.server'
import { withTestDatabase } from '../../../tests/setup/database'
import { newOwnerScope } from '../../../tests/setup/scope'
import { deleteSourceWithPassages, replaceSourcePassages } from './index-passages.server'
import { searchPassages } from './search.server'
import { saveCustomerWords } from './customer-words.server'

const getDb = withTestDatabase()

/** A ready FAQ source indexed as the job indexes it. */
async function addFaq(db: Database, organizationId: string, question: string, answer: string) {
  const [source] = await db
    .insert(knowledgeSources)
    .values({ organizationId, kind: 'faq', title: question, question, body: answer })
    .returning()
  await replaceSourcePassages(db, {
    organizationId,
    sourceId: source.id,
    revision: source.revision,
    title: question,
    passages: [{ headingPath: [], text: answer }],
    sizeBytes: answer.length,
  })
  return source
}

/** A ready text source of several sections, indexed as the job indexes it. */
async function addDocument(
  db: Database,
  organizationId: string,
  title: string,
  sections: [string, string][],
) {
  const [source] = await db
    .insert(knowledgeSources)
    .values({ organizationId, kind: 'text', title, body: sections.map(([, text]) => text).join('\n') })
    .returning()
  await replaceSourcePassages(db, {
    organizationId,
    sourceId: source.id,
    revision: source.revision,
    title,
    passages: sections.map(([heading, text]) => ({ headingPath: [heading], text })),
    sizeBytes: 1000,
  })
  return source
}

async function shop(db: Database) {
  const scope = await newOwnerScope(db)
  const org = scope.organizationId
  const returns = await addFaq(
    db,
    org,
    'What is your returns policy?',
    'You can return unworn items within 30 days of delivery for a full refund to your original payment method.',
  )
  const shipping = await addFaq(
    db,
    org,
    'How much does shipping cost?',
    'Standard shipping within Germany costs 4.90 EUR and is free on orders over 50 EUR.',
  )
  const hours = await addFaq(
    db,
    org,
    'When is the Berlin store open?',
    'Our Berlin store is open Monday to Saturday from 10:00 to 19:00 and closed on Sundays.',
  )
  return { scope, org, returns, shipping, hours }
}

describe('searchPassages', () => {
  it('finds the passage by its words, their synonyms and their typos, scored 0-1', async () => {
    const db = getDb()
    const { org, returns, shipping, hours } = await shop(db)
    const first = async (query: string) =>
      (await searchPassages(db, { organizationId: org, query, limit: 3 }))[0]?.sourceId
    expect(await first('how much is delivery?')).toBe(shipping.id)
    expect(await first('can I get my money back')).toBe(returns.id)
    expect(await first('retrun polcy')).toBe(returns.id)
    expect(await first('are you open on sunday')).toBe(hours.id)
    const [hit] = await searchPassages(db, { organizationId: org, query: 'shipping cost', limit: 1 })
    expect(hit.score).toBeGreaterThan(0.5)
    expect(hit.score).toBeLessThanOrEqual(1)
    expect(hit.title).toBe('How much does shipping cost?')
  })

  it('reads "send it back" as a return and a city as its country', async () => {
    const db = getDb()
    const { org, returns, shipping } = await shop(db)
    const international = await addFaq(
      db,
      org,
      'Do you deliver abroad?',
      'We deliver to all EU countries in 3-5 days. We cannot deliver to South America yet.',
    )
    const first = async (query: string) =>
      (await searchPassages(db, { organizationId: org, query, limit: 3 }))[0]?.sourceId
    expect(await first('can I still send it back?')).toBe(returns.id)
    expect(await first('do you send parcels to Brazil?')).toBe(international.id)
    expect(await first('do you deliver to Vienna?')).toBe(international.id)
    expect(await first('how much to send a parcel')).toBe(shipping.id)
  })

  it('finds a number as written, never corrected to another', async () => {
    const db = getDb()
    const { org, shipping } = await shop(db)
    const sizes = await addDocument(db, org, 'Size guide', [
      ['Shoes', 'EU: 42; foot length (cm): 26.7. EU: 43; foot length (cm): 27.4.'],
      ['Gloves', 'Size: M; hand circumference (cm): 20–21. Size: L; hand circumference (cm): 22–23.'],
    ])
    const hits = async (query: string) => await searchPassages(db, { organizationId: org, query, limit: 3 })
    expect((await hits('which size for 27.4'))[0]).toMatchObject({
      sourceId: sizes.id,
      headingPath: ['Shoes'],
    })
    expect((await hits('my foot measures 27,4'))[0]).toMatchObject({
      sourceId: sizes.id,
      headingPath: ['Shoes'],
    })
    // 4.80 is not the 4.90 of the shipping answer: no passage holds it, so the question finds nothing by it.
    expect(await hits('4.80')).toEqual([])
    expect((await hits('4.90'))[0]?.sourceId).toBe(shipping.id)
  })

  it("puts a document's passages after its third behind other sources, and still fills the limit", async () => {
    const db = getDb()
    const { org, returns } = await shop(db)
    const policy = await addDocument(
      db,
      org,
      'Returns and Refunds Policy',
      ['Sale items', 'Gift returns', 'Refund times', 'Return labels', 'Exchanges'].map((heading) => [
        heading,
        `${heading}: how returns of items work for this case, and what the refund is.`,
      ]),
    )
    const hits = await searchPassages(db, { organizationId: org, query: 'return refund items', limit: 5 })
    // Only the returns FAQ matches besides the policy: it comes before the policy's fourth passage, which then
    // fills the fifth place.
    expect(hits.map((hit) => hit.sourceId === policy.id)).toEqual([true, true, true, false, true])
    expect(hits[3]?.sourceId).toBe(returns.id)
    expect(hits[3]!.score).toBeLessThan(hits[4]!.score)
    const onlyPolicy = await searchPassages(db, {
      organizationId: org,
      query: 'return refund items',
      limit: 5,
      sourceIds: [policy.id],
    })
    expect(onlyPolicy).toHaveLength(5)
  })

  it('ranks a passage that says the words more often first, though it is longer', async () => {
    const db = getDb()
    const scope = await newOwnerScope(db)
    const org = scope.organizationId
    const rental = await addDocument(db, org, 'Rental terms', [
      [
        'At the counter',
        'Renting costs 15 EUR a day; a deposit for the tent is paid at the counter of the Utrecht store.',
      ],
      [
        'After your trip',
        'We take a deposit for every tent we rent out. The deposit comes back in full when the tent is ' +
          'returned clean and dry; for a tent returned wet we keep part of the deposit to dry it.',
      ],
    ])
    const hits = await searchPassages(db, { organizationId: org, query: 'tent deposit', limit: 2 })
    expect(hits.map((hit) => [hit.sourceId, hit.headingPath])).toEqual([
      [rental.id, ['After your trip']],
      [rental.id, ['At the counter']],
    ])
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
  })

  it("scores a question written like the customer's higher than one holding the same words", async () => {
    const db = getDb()
    const scope = await newOwnerScope(db)
    const org = scope.organizationId
    const answer = 'Orders placed before 15:00 leave the same day.'
    const alike = await addFaq(db, org, 'When will my order leave the warehouse?', answer)
    const unlike = await addFaq(db, org, 'Order leave policy', answer)
    const hits = await searchPassages(db, {
      organizationId: org,
      query: 'when will my order leave?',
      limit: 2,
    })
    expect(hits.map((hit) => hit.sourceId)).toEqual([alike.id, unlike.id])
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score + 0.1)
  })

  it("counts a passage's word once, though several of the question's words have it as an alternative", async () => {
    const db = getDb()
    const { org, shipping } = await shop(db)
    // "shipping cost" (a phrase of the lists) and "shipping" both have "delivery" as an alternative: the returns
    // answer's one "delivery" counted for both made it relevant to a question about shipping costs.
    const hits = await searchPassages(db, {
      organizationId: org,
      query: 'How much does shipping cost?',
      limit: 5,
      minRelevance: 0.2,
    })
    expect(hits.map((hit) => hit.sourceId)).toEqual([shipping.id])
  })

  it('finds nothing for words no passage holds, or below the minimum relevance', async () => {
    const db = getDb()
    const { org } = await shop(db)
    expect(
      await searchPassages(db, { organizationId: org, query: 'quantum entanglement', limit: 5 }),
    ).toEqual([])
    expect(
      await searchPassages(db, {
        organizationId: org,
        query: 'refund policy for pets and their vaccinations abroad',
        limit: 5,
        minRelevance: 0.9,
      }),
    ).toEqual([])
  })

  it('corrects a slip of the keys, not a real word into another (ADR 075)', async () => {
    const db = getDb()
    const { org } = await shop(db)
    const wrapping = await addFaq(db, org, 'Do you wrap a present?', 'We wrap any present for 3 EUR.')
    const search = (query: string) => searchPassages(db, { organizationId: org, query, limit: 5 })
    expect(await search('who will be the next president?')).toEqual([])
    expect((await search('can you wrap a presnet'))[0]?.sourceId).toBe(wrapping.id)
  })

  it("never returns another organization's passages, nor those of a deleted source", async () => {
    const db = getDb()
    const a = await shop(db)
    const b = await newOwnerScope(db)
    expect(
      await searchPassages(db, { organizationId: b.organizationId, query: 'shipping', limit: 5 }),
    ).toEqual([])
    expect(await deleteSourceWithPassages(db, b.organizationId, a.shipping.id)).toBe(false)
    expect(await deleteSourceWithPassages(db, a.org, a.shipping.id)).toBe(true)
    const hits = await searchPassages(db, { organizationId: a.org, query: 'shipping cost', limit: 5 })
    expect(hits.map((hit) => hit.sourceId)).not.toContain(a.shipping.id)
  })

  it('searches only the sources given', async () => {
    const db = getDb()
    const { org, returns, hours } = await shop(db)
    const hits = await searchPassages(db, {
      organizationId: org,
      query: 'shipping cost refund store',
      limit: 5,
      sourceIds: [returns.id, hours.id],
    })
    expect(new Set(hits.map((hit) => hit.sourceId))).toEqual(new Set([returns.id, hours.id]))
  })

  it('finds a passage written with accents from a question written without them, in its language (issue 36)', async () => {
    const db = getDb()
    const scope = await newOwnerScope(db)
    const org = scope.organizationId
    const pix = await addFaq(
      db,
      org,
      'Quais são as formas de pagamento?',
      'Aceitamos cartão de crédito em até 6 vezes sem juros, Pix com 5% de desconto e boleto bancário.',
    )
    await addFaq(
      db,
      org,
      'Qual é o prazo de entrega?',
      'As entregas para todo o Brasil levam de 3 a 8 dias úteis.',
    )
    const [source] = await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, pix.id))
    expect(source?.language).toBe('portuguese')
    const hits = await searchPassages(db, {
      organizationId: org,
      query: 'cartao de credito parcela?',
      limit: 1,
    })
    expect(hits.map((hit) => hit.sourceId)).toEqual([pix.id])
    // Stemmed with its accents "informação" is 'inform', without them 'informaca': the vector holds both.
    const [vector] = rowsOf<{ lexemes: string[] }>(
      await db.execute(
        sql`select tsvector_to_array(knowledge_vector('portuguese', 'Informação e promoções', 'D')) as lexemes`,
      ),
    )
    expect(vector?.lexemes.sort()).toEqual(['inform', 'informaca', 'promoco', 'promoçõ'])
  })

  it("reads a question's word with the organization's own group of words (words your customers use)", async () => {
    const db = getDb()
    const scope = await newOwnerScope(db)
    const org = scope.organizationId
    const screen = await addFaq(
      db,
      org,
      '¿Cuánto cuesta cambiar la pantalla del móvil?',
      'Cambiar la pantalla de un móvil cuesta desde 59 € y se hace en una hora.',
    )
    await addFaq(db, org, '¿Dónde estáis?', 'Estamos en la calle Mayor 12 de Madrid, al lado del metro Sol.')
    const question = { organizationId: org, query: 'se me rompió el chunche', limit: 5, minRelevance: 0.2 }
    expect(await searchPassages(db, question)).toEqual([])
    await saveCustomerWords(scope, [['móvil', 'chunche']])
    expect((await searchPassages(db, question)).map((hit) => hit.sourceId)).toEqual([screen.id])
    // Another organization with the same entry but no words of its own does not read them.
    const other = await newOwnerScope(db)
    await addFaq(db, other.organizationId, '¿Cuánto cuesta cambiar la pantalla del móvil?', 'Desde 59 €.')
    expect(await searchPassages(db, { ...question, organizationId: other.organizationId })).toEqual([])
  })
})
