import { z } from 'zod'
import { idSchema } from '~/lib/shared/input'
import {
  KNOWLEDGE_LIMITS,
  KNOWLEDGE_SOURCE_KINDS,
  KNOWLEDGE_STATUSES,
  knowledgeSearchSchema,
  knowledgeSourceInputSchema,
  knowledgeSourceUpdateSchema,
} from '~/lib/knowledge/knowledge'
import { FILE_TOO_LARGE_MESSAGE, knowledgeUploadSchema } from '~/lib/knowledge/forms'
import { defineEndpoint } from '~/lib/api/contract'
import {
  MAX_GROUP_WORDS,
  MAX_WORD_GROUPS,
  MAX_WORD_LENGTH,
  wordGroupsSchema,
} from '~/lib/knowledge/customer-words'
import { orgParams } from './shared'

const when = z.string().meta({ description: 'ISO 8601' })

/** "Words your customers use" (docs/decisions/073), as the API reads and writes them. */
const customerWordsSchema = z.object({
  groups: wordGroupsSchema.meta({
    description:
      'Groups of words or phrases that mean the same, in any language: [["mobile", "cell phone"], ...]',
  }),
})

/** A source as the list shows it: what it is and how its processing went, not what it holds. */
const knowledgeSourceSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(KNOWLEDGE_SOURCE_KINDS),
  title: z.string(),
  status: z.enum(KNOWLEDGE_STATUSES).meta({
    description: 'processing until its job has read it into passages; then ready, or failed (failureReason)',
  }),
  failureReason: z.string().nullable(),
  fileName: z.string().nullable(),
  fileType: z.string().nullable().meta({ description: 'A file: the type read from its content' }),
  url: z.string().nullable(),
  crawl: z.boolean(),
  maxPages: z.number(),
  pages: z
    .array(z.object({ url: z.string(), title: z.string(), error: z.string().optional() }))
    .nullable()
    .meta({
      description: 'A web page: the pages its last fetch read (with an error for those it could not)',
    }),
  sizeBytes: z.number(),
  passageCount: z.number(),
  processedAt: when.nullable(),
  createdAt: when,
  updatedAt: when,
})

/** One source with what it holds (an FAQ's question and answer, a text's body; never a file's bytes). */
const knowledgeSourceSchema = knowledgeSourceSummarySchema.extend({
  question: z.string().nullable(),
  body: z.string().nullable().meta({ description: "An FAQ's answer or a text's body" }),
})

const knowledgeHitSchema = z.object({
  passageId: z.string(),
  sourceId: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  text: z.string(),
  score: z.number().meta({
    description:
      "0-1: the share of the question's weighted words the passage holds, plus up to 0.4 as its heading (an FAQ's question) reads like the question",
  }),
  url: z.string().nullable(),
})

const sourceParams = orgParams.extend({ sourceId: idSchema })

export const knowledgeEndpoints = {
  listKnowledgeSources: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/knowledge',
    operationId: 'listKnowledgeSources',
    summary: "The organization's knowledge sources (FAQs, texts, files, web pages), newest first",
    tag: 'Knowledge',
    params: orgParams,
    response: z.array(knowledgeSourceSummarySchema),
  }),
  createKnowledgeSource: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/knowledge',
    operationId: 'createKnowledgeSource',
    summary:
      'Add a source: an FAQ, a text or a web page as JSON; a file (.txt, .md, .pdf, .docx, at most 10 MB, its type read from its content) as multipart/form-data. It is stored as processing; a job reads it into passages',
    tag: 'Knowledge',
    params: orgParams,
    body: knowledgeSourceInputSchema,
    multipart: {
      schema: knowledgeUploadSchema,
      maxPartBytes: KNOWLEDGE_LIMITS.fileBytes,
      tooLarge: FILE_TOO_LARGE_MESSAGE,
    },
    response: knowledgeSourceSchema,
    successStatus: 201,
  }),
  getKnowledgeSource: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/knowledge/{sourceId}',
    operationId: 'getKnowledgeSource',
    summary: 'One source, with its question and answer or its text',
    tag: 'Knowledge',
    params: sourceParams,
    response: knowledgeSourceSchema,
  }),
  updateKnowledgeSource: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}/knowledge/{sourceId}',
    operationId: 'updateKnowledgeSource',
    summary:
      "Change the fields given, of the source's kind (FAQ: question, answer; text: title, text; file: title; web page: url, crawl, maxPages); it is processed again. A file's content is replaced by uploading a new one",
    tag: 'Knowledge',
    params: sourceParams,
    body: knowledgeSourceUpdateSchema,
    response: knowledgeSourceSchema,
  }),
  deleteKnowledgeSource: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/knowledge/{sourceId}',
    operationId: 'deleteKnowledgeSource',
    summary: 'Delete a source and its passages: agents no longer answer from it',
    tag: 'Knowledge',
    params: sourceParams,
    response: z.null(),
  }),
  refreshKnowledgeSource: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/knowledge/{sourceId}/refresh',
    operationId: 'refreshKnowledgeSource',
    summary:
      'Fetch a web page again (any other source: process it again). Accepted: the source is processing until its job is done',
    tag: 'Knowledge',
    params: sourceParams,
    response: knowledgeSourceSchema,
    successStatus: 202,
  }),
  getCustomerWords: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/knowledge/words',
    operationId: 'getCustomerWords',
    summary:
      "Words your customers use: the organization's groups of words that mean the same for its business, which the knowledge search reads as one",
    tag: 'Knowledge',
    params: orgParams,
    response: customerWordsSchema,
  }),
  updateCustomerWords: defineEndpoint({
    method: 'PUT',
    path: '/organizations/{orgId}/knowledge/words',
    operationId: 'updateCustomerWords',
    summary: `Replace the organization's groups of words: each 2 to ${MAX_GROUP_WORDS} words or phrases of at most ${MAX_WORD_LENGTH} characters, at most ${MAX_WORD_GROUPS} groups; [] removes them`,
    tag: 'Knowledge',
    params: orgParams,
    body: customerWordsSchema,
    response: customerWordsSchema,
  }),
  searchKnowledge: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/knowledge/search',
    operationId: 'searchKnowledge',
    summary:
      "The passages that answer a question best, best first (no model involved): of all the organization's ready sources, or of those an agent answers from (agentId)",
    tag: 'Knowledge',
    params: orgParams,
    body: knowledgeSearchSchema,
    response: z.array(knowledgeHitSchema),
  }),
}
