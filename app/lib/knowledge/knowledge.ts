import { z } from 'zod'
import { UPLOAD_FILE_MAX_BYTES } from '~/lib/shared/constants'
import { hasNoNul, idSchema, NUL_MESSAGE } from '~/lib/shared/input'

// The knowledge base (issue #18, docs/decisions/042): the organization's FAQ entries, texts, files and web pages,
// split into passages that agents answer from. Client-safe: the forms and the API validate with these schemas.

export const KNOWLEDGE_SOURCE_KINDS = ['faq', 'text', 'file', 'url'] as const
export type KnowledgeSourceKind = (typeof KNOWLEDGE_SOURCE_KINDS)[number]
export const KNOWLEDGE_SOURCE_KIND_LABELS: Record<KnowledgeSourceKind, string> = {
  faq: 'FAQ',
  text: 'Text',
  file: 'File',
  url: 'Web page',
}

export const KNOWLEDGE_STATUSES = ['processing', 'ready', 'failed'] as const
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number]

/** Which of the organization's knowledge an agent answers from. */
export const AGENT_KNOWLEDGE_MODES = ['all', 'selected', 'none'] as const
export type AgentKnowledgeMode = (typeof AGENT_KNOWLEDGE_MODES)[number]
export const AGENT_KNOWLEDGE_MODE_LABELS: Record<AgentKnowledgeMode, string> = {
  all: "All of the organization's knowledge",
  selected: 'Selected sources',
  none: 'None (the system prompt only)',
}

export const KNOWLEDGE_LIMITS = {
  titleLength: 200,
  questionLength: 1_000,
  answerLength: 10_000,
  textLength: 200_000,
  fileBytes: UPLOAD_FILE_MAX_BYTES,
  urlLength: 2_000,
  /** Pages a web source may follow on its own site. */
  maxPages: 50,
  queryLength: 1_000,
  searchLimit: 20,
  /** Passages an agent's prompt may carry. */
  maxPassages: 10,
} as const

/**
 * The cosine similarity a passage found only by its vector needs to count as relevant, unless
 * LLM_EMBEDDING_MIN_SIMILARITY says otherwise (docs/decisions/043).
 */
export const DEFAULT_EMBEDDING_MIN_SIMILARITY = 0.4

export const KNOWLEDGE_WEB_LIMITS = {
  /** Bytes read of one page; the rest is cut off. */
  pageBytes: 2 * 1024 * 1024,
  pageTimeoutMs: 10_000,
  /** A whole crawl (all its pages). */
  crawlDeadlineMs: 120_000,
} as const

export const KNOWLEDGE_FILE_EXTENSIONS = ['.txt', '.md', '.pdf', '.docx'] as const
/** An upload whose name or content is none of these kinds. */
export const UNSUPPORTED_FILE_MESSAGE = 'This file is not a PDF, Word (.docx), Markdown or text file.'
/** The kind a file's name gives (its extension, in any case), if it is one we take. */
export const knowledgeFileExtension = (name: string) =>
  KNOWLEDGE_FILE_EXTENSIONS.find((extension) => name.trim().toLowerCase().endsWith(extension))

/** What a new agent and an agent made before issue #18 take (see the agents' column defaults). */
export const AGENT_KNOWLEDGE_DEFAULTS = {
  knowledgeMode: 'all' as AgentKnowledgeMode,
  knowledgeSourceIds: [] as string[],
  knowledgePassages: 5,
  knowledgeMinRelevance: 0.2,
  knowledgeNoAnswerMessage:
    "I don't have that information, so I've asked a person from our team to help. They will reply here soon.",
}
export const EXISTING_AGENT_KNOWLEDGE_MODE: AgentKnowledgeMode = 'none'

const trimmed = (max: number, label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString('en')} characters`)
    .refine(hasNoNul, NUL_MESSAGE)

export const knowledgeFaqSchema = z.object({
  kind: z.literal('faq'),
  question: trimmed(KNOWLEDGE_LIMITS.questionLength, 'Question'),
  answer: trimmed(KNOWLEDGE_LIMITS.answerLength, 'Answer'),
})

export const knowledgeTextSchema = z.object({
  kind: z.literal('text'),
  title: trimmed(KNOWLEDGE_LIMITS.titleLength, 'Title'),
  text: trimmed(KNOWLEDGE_LIMITS.textLength, 'Text'),
})

/** A page behind a sign-in cannot be read: a user name and password in its address are refused at once. */
export const URL_CREDENTIALS_MESSAGE =
  'Remove the user name and password from the address: only public web pages can be read'
const hasCredentials = (url: URL) => url.username !== '' || url.password !== ''

export const knowledgeUrlSchema = z.object({
  kind: z.literal('url'),
  url: z
    .string({ error: 'URL is required' })
    .trim()
    .min(1, 'URL is required')
    .max(KNOWLEDGE_LIMITS.urlLength, 'URL is too long')
    .refine(
      (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
      'Enter a web address starting with https://',
    )
    .refine((value) => !URL.canParse(value) || !hasCredentials(new URL(value)), URL_CREDENTIALS_MESSAGE),
  crawl: z.boolean().default(false),
  maxPages: z.coerce
    .number({ error: 'Pages must be a number' })
    .int('Pages must be a whole number')
    .min(1, 'Pages must be at least 1')
    .max(KNOWLEDGE_LIMITS.maxPages, `Pages must be at most ${KNOWLEDGE_LIMITS.maxPages}`)
    .default(10),
})

/** The JSON body of a new source (a file comes as multipart/form-data instead). */
export const knowledgeSourceInputSchema = z.discriminatedUnion(
  'kind',
  [knowledgeFaqSchema, knowledgeTextSchema, knowledgeUrlSchema],
  { error: 'Kind must be faq, text or url (files are uploaded as multipart/form-data)' },
)
export type KnowledgeSourceInput = z.infer<typeof knowledgeSourceInputSchema>

/** A change to a source: the fields of its kind (a file is replaced by uploading a new one). */
export const knowledgeSourceUpdateSchema = z
  .object({
    title: trimmed(KNOWLEDGE_LIMITS.titleLength, 'Title').optional(),
    question: trimmed(KNOWLEDGE_LIMITS.questionLength, 'Question').optional(),
    answer: trimmed(KNOWLEDGE_LIMITS.answerLength, 'Answer').optional(),
    text: trimmed(KNOWLEDGE_LIMITS.textLength, 'Text').optional(),
    url: knowledgeUrlSchema.shape.url.optional(),
    crawl: z.boolean().optional(),
    // Without its default: a change that leaves it out leaves it as it is.
    maxPages: knowledgeUrlSchema.shape.maxPages.unwrap().optional(),
  })
  .strict()
export type KnowledgeSourceUpdate = z.infer<typeof knowledgeSourceUpdateSchema>

export const knowledgeSearchSchema = z.object({
  query: trimmed(KNOWLEDGE_LIMITS.queryLength, 'Query'),
  agentId: idSchema.optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(KNOWLEDGE_LIMITS.searchLimit, `Limit must be at most ${KNOWLEDGE_LIMITS.searchLimit}`)
    .default(5),
})
export type KnowledgeSearchInput = z.infer<typeof knowledgeSearchSchema>

/** One passage that retrieval found, as the API, the "Try a question" box and the Test Agent dialog show it. */
export type KnowledgeHit = {
  passageId: string
  sourceId: string
  title: string
  headingPath: string[]
  text: string
  /**
   * 0-1: how much of the question's weighted words the passage holds, plus up to 0.4 as its heading (an FAQ's
   * question) reads like the question; with an embedding model, the higher of that and the passage's cosine
   * similarity to the question (see ADR 043).
   */
  score: number
  url: string | null
}

/** What an agent's run records of the passages its prompt carried. */
export type UsedPassage = Pick<KnowledgeHit, 'passageId' | 'sourceId' | 'title' | 'headingPath' | 'score'>

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * What the model answers, alone, when the knowledge passages it is given do not hold the answer (the grounding
 * instruction asks it to): the reply takes the no-answer path instead (docs/decisions/042).
 */
export const NO_ANSWER = 'NO_ANSWER'
