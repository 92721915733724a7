import type { Database } from '~/db/client.server'
import { knowledgeSources } from '~/db/schema'
import { replaceSourcePassages } from '~/services/knowledge/index-passages.server'

/**
 * A ready FAQ source of `organizationId`, indexed as the knowledge job indexes it (without the job): one passage,
 * the answer under the question.
 */
export async function addTestFaq(db: Database, organizationId: string, question: string, answer: string) {
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

/** A source still being processed: no passage yet. */
export async function addProcessingFaq(db: Database, organizationId: string, question: string) {
  const [source] = await db
    .insert(knowledgeSources)
    .values({ organizationId, kind: 'faq', title: question, question, body: 'Not processed yet.' })
    .returning()
  return source
}

/**
 * A shop's three FAQs (returns, shipping, opening hours), ready. Retrieval weighs a word by its rarity among the
 * passages: with a single passage every word is everywhere, so tests that expect a match index a few.
 */
export async function addTestShop(db: Database, organizationId: string) {
  const returns = await addTestFaq(
    db,
    organizationId,
    'What is your returns policy?',
    'You can return unworn items within 30 days of delivery for a full refund to your original payment method.',
  )
  const shipping = await addTestFaq(
    db,
    organizationId,
    'How much does shipping cost?',
    'Standard shipping within Germany costs 4.90 EUR and is free on orders over 50 EUR.',
  )
  const hours = await addTestFaq(
    db,
    organizationId,
    'When is the Berlin store open?',
    'Our Berlin store is open Monday to Saturday from 10:00 to 19:00 and closed on Sundays.',
  )
  return { returns, shipping, hours }
}
