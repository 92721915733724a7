// Checks the Knowledge evaluation corpus for consistency: node bench/knowledge/shop/check-corpus.mjs
// It reads only the corpus files and never the retrieval code. Exits 1 on any error.
import console from 'node:console'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const read = (name) => readFileSync(join(here, name), 'utf8')
const DOCS = ['shipping-policy.md', 'returns-and-warranty.md', 'size-guide.md']
const KINDS = new Set(['synonym', 'typo', 'reorder', 'short', 'long', 'doc'])
const errors = []
const fail = (message) => errors.push(message)

const faqs = JSON.parse(read('faqs.json'))
const questions = JSON.parse(read('questions.json'))
const docs = Object.fromEntries(DOCS.map((name) => [name, read(name)]))

const occurrences = (text, phrase) => text.split(phrase).length - 1
const words = (text) => text.split(/\s+/).filter(Boolean)
const sentences = (text) => text.split(/(?<=[.!?])\s+/).filter(Boolean).length
const normalize = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '')
    .trim()

const faqIds = new Set()
for (const faq of faqs) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(faq.id)) fail(`faq id is not kebab-case: ${faq.id}`)
  if (faqIds.has(faq.id)) fail(`duplicate faq id: ${faq.id}`)
  faqIds.add(faq.id)
  if (!faq.question?.trim() || !faq.answer?.trim()) fail(`faq ${faq.id}: empty question or answer`)
  const n = sentences(faq.answer)
  if (n < 1 || n > 4) fail(`faq ${faq.id}: answer has ${n} sentences (1-4)`)
}

for (const [name, text] of Object.entries(docs)) {
  const n = words(text).length
  if (n < 1200 || n > 2500) fail(`${name}: ${n} words (1,200-2,500)`)
  if (!/^# /m.test(text) || !/^## /m.test(text) || !/^### /m.test(text))
    fail(`${name}: needs #, ## and ### headings`)
}
if (!/^\|.*\|$/m.test(docs['size-guide.md'])) fail('size-guide.md: no Markdown table')

const questionIds = new Set()
const faqQuestions = new Set(faqs.map((faq) => normalize(faq.question)))
const counts = { faq: 0, doc: 0 }
const kinds = {}
for (const q of questions) {
  if (questionIds.has(q.id)) fail(`duplicate question id: ${q.id}`)
  questionIds.add(q.id)
  if (!KINDS.has(q.kind)) fail(`${q.id}: unknown kind ${q.kind}`)
  kinds[q.kind] = (kinds[q.kind] ?? 0) + 1
  if (faqQuestions.has(normalize(q.question))) fail(`${q.id}: copies an FAQ question`)
  for (const name of q.alsoAnsweredIn ?? []) if (!docs[name]) fail(`${q.id}: alsoAnsweredIn unknown ${name}`)
  const { faq, doc, contains } = q.expect ?? {}
  if (faq !== undefined) {
    counts.faq++
    if (!faqIds.has(faq)) fail(`${q.id}: unknown faq ${faq}`)
  } else if (doc !== undefined) {
    counts.doc++
    if (!docs[doc]) fail(`${q.id}: unknown doc ${doc}`)
    else {
      const n = words(contains ?? '').length
      if (n < 3 || n > 8) fail(`${q.id}: contains has ${n} words (3-8)`)
      const found = occurrences(docs[doc], contains)
      if (found !== 1) fail(`${q.id}: "${contains}" occurs ${found} times in ${doc}`)
    }
  } else fail(`${q.id}: expect has neither faq nor doc`)
}

if (faqs.length < 64) fail(`${faqs.length} FAQs (at least 64)`)
if (questions.length < 60) fail(`${questions.length} questions (at least 60)`)
if (counts.doc < 20) fail(`${counts.doc} document questions (at least 20)`)
if ((kinds.typo ?? 0) < 8) fail(`${kinds.typo ?? 0} typo questions (at least 8)`)

const docWords = DOCS.map((name) => `${name} ${words(docs[name]).length}`).join(', ')
console.log(`${faqs.length} FAQs; documents: ${docWords} words`)
console.log(
  `${questions.length} questions: ${counts.faq} FAQ, ${counts.doc} document; kinds ${JSON.stringify(kinds)}`,
)
for (const message of errors) console.error(`error: ${message}`)
process.exit(errors.length ? 1 : 0)
