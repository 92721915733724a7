// Checks the Knowledge evaluation corpus for consistency: node bench/knowledge/shop/check-corpus.mjs
// Covers faqs.json, the three documents, questions.json, the held-out questions-holdout.json and the blind
// questions-blind.json.
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
const holdoutQuestions = JSON.parse(read('questions-holdout.json'))
const blindQuestions = JSON.parse(read('questions-blind.json'))
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

const faqQuestions = new Set(faqs.map((faq) => normalize(faq.question)))
const mainQuestions = new Set(questions.map((q) => normalize(q.question)))

// Checks one question set; returns a summary line. `holdout` adds the rules of the held-out set.
function checkQuestions(file, list, { idPattern, holdout = false }) {
  const ids = new Set()
  const counts = { faq: 0, doc: 0 }
  const kinds = {}
  const faqsUsed = new Set()
  const phrases = new Set()
  const passages = new Set()
  for (const q of list) {
    const where = `${file} ${q.id}`
    if (!idPattern.test(q.id ?? '')) fail(`${where}: id does not match ${idPattern}`)
    if (ids.has(q.id)) fail(`${file}: duplicate question id: ${q.id}`)
    ids.add(q.id)
    if (!q.question?.trim()) fail(`${where}: empty question`)
    if (!KINDS.has(q.kind)) fail(`${where}: unknown kind ${q.kind}`)
    kinds[q.kind] = (kinds[q.kind] ?? 0) + 1
    if (faqQuestions.has(normalize(q.question ?? ''))) fail(`${where}: copies an FAQ question`)
    if (holdout && mainQuestions.has(normalize(q.question ?? '')))
      fail(`${where}: copies a question of questions.json`)
    for (const name of q.alsoAnsweredIn ?? [])
      if (!docs[name]) fail(`${where}: alsoAnsweredIn unknown ${name}`)
    const { faq, doc, contains } = q.expect ?? {}
    if (faq !== undefined) {
      counts.faq++
      faqsUsed.add(faq)
      if (!faqIds.has(faq)) fail(`${where}: unknown faq ${faq}`)
    } else if (doc !== undefined) {
      counts.doc++
      if (!docs[doc]) fail(`${where}: unknown doc ${doc}`)
      else {
        const n = words(contains ?? '').length
        if (n < 3 || n > 8) fail(`${where}: contains has ${n} words (3-8)`)
        const found = occurrences(docs[doc], contains)
        if (found !== 1) fail(`${where}: "${contains}" occurs ${found} times in ${doc}`)
        if (phrases.has(`${doc}#${contains}`))
          fail(`${where}: "${contains}" already expected by another question`)
        phrases.add(`${doc}#${contains}`)
        // The passage is the blank-line-separated block (paragraph, list or table) holding the phrase.
        const at = docs[doc].indexOf(contains)
        if (at >= 0) passages.add(`${doc}#${docs[doc].lastIndexOf('\n\n', at)}`)
      }
    } else fail(`${where}: expect has neither faq nor doc`)
  }

  if (list.length < 60) fail(`${file}: ${list.length} questions (at least 60)`)
  if (counts.doc < 20) fail(`${file}: ${counts.doc} document questions (at least 20)`)
  if ((kinds.typo ?? 0) < 8) fail(`${file}: ${kinds.typo ?? 0} typo questions (at least 8)`)
  if (holdout) {
    if (faqsUsed.size < 45) fail(`${file}: covers ${faqsUsed.size} FAQ entries (at least 45)`)
    if (passages.size < 15) fail(`${file}: covers ${passages.size} document passages (at least 15)`)
  }
  return (
    `${file}: ${list.length} questions: ${counts.faq} FAQ (${faqsUsed.size} entries), ` +
    `${counts.doc} document (${passages.size} passages); kinds ${JSON.stringify(kinds)}`
  )
}

const summaries = [
  checkQuestions('questions.json', questions, { idPattern: /^q\d{2,3}$/ }),
  checkQuestions('questions-holdout.json', holdoutQuestions, { idPattern: /^h\d{2,3}$/, holdout: true }),
  // The blind set follows the held-out set's rules (it was written without seeing questions.json either).
  checkQuestions('questions-blind.json', blindQuestions, { idPattern: /^b\d{2,3}$/, holdout: true }),
]
if (faqs.length < 64) fail(`${faqs.length} FAQs (at least 64)`)

const docWords = DOCS.map((name) => `${name} ${words(docs[name]).length}`).join(', ')
console.log(`${faqs.length} FAQs; documents: ${docWords} words`)
for (const line of summaries) console.log(line)
for (const message of errors) console.error(`error: ${message}`)
process.exit(errors.length ? 1 : 0)
