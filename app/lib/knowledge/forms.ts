import { z } from 'zod'
import {
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_LIMITS,
  knowledgeFaqSchema,
  knowledgeFileExtension,
  knowledgeSourceUpdateSchema,
  knowledgeTextSchema,
  knowledgeUrlSchema,
  UNSUPPORTED_FILE_MESSAGE,
  type KnowledgeSourceKind,
} from './knowledge'
import { FILE_TOO_LARGE_MESSAGE } from '~/lib/shared/constants'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

// The Knowledge page's forms and the API's upload (docs/decisions/045), derived from the schemas of knowledge.ts.

export { FILE_TOO_LARGE_MESSAGE }
export const FILE_REQUIRED_MESSAGE = 'Choose a file to upload'

/**
 * The file picker's `accept`: a hint for the picker. An upload's name must end with one of these, and its content
 * must be of a kind we read (checked on upload); the job reads the type from the content.
 */
export const KNOWLEDGE_FILE_ACCEPT = KNOWLEDGE_FILE_EXTENSIONS.join(',')

/** The kinds added by a form of fields (a file is uploaded by a form of its own). */
export const KNOWLEDGE_FIELD_KINDS = ['faq', 'text', 'url'] as const
export type KnowledgeFieldKind = (typeof KNOWLEDGE_FIELD_KINDS)[number]
export const isKnowledgeFieldKind = (value: unknown): value is KnowledgeFieldKind =>
  KNOWLEDGE_FIELD_KINDS.some((kind) => kind === value)

/** The Add FAQ / Add text / Add web page forms: the API's body of that kind (a hidden `kind` field). */
export const knowledgeCreateSchemas = {
  faq: knowledgeFaqSchema,
  text: knowledgeTextSchema,
  url: knowledgeUrlSchema,
} as const

/**
 * An upload: the page's Upload file form and the API's multipart/form-data body. The size is checked while the
 * body is read (nothing past 10 MB is kept); this repeats it for the browser's own check before sending.
 */
export const knowledgeUploadSchema = z.object({
  file: z
    .file({ error: FILE_REQUIRED_MESSAGE })
    .min(1, 'The file is empty')
    .max(KNOWLEDGE_LIMITS.fileBytes, FILE_TOO_LARGE_MESSAGE)
    .refine((file) => knowledgeFileExtension(file.name) !== undefined, UNSUPPORTED_FILE_MESSAGE)
    .meta({ description: `A ${KNOWLEDGE_FILE_EXTENSIONS.join(', ')} file of at most 10 MB` }),
  title: z
    .string()
    .trim()
    .max(
      KNOWLEDGE_LIMITS.titleLength,
      `Title must be at most ${KNOWLEDGE_LIMITS.titleLength.toLocaleString('en')} characters`,
    )
    .refine(hasNoNul, NUL_MESSAGE)
    .optional()
    .meta({ description: "The source's title; left out or empty: the file's name" }),
})

/**
 * The edit forms, one per kind (a hidden `kind` field): the fields that kind may change, all of them sent. A web
 * page's unticked "Also read..." box is not posted at all, so the edit form reads it as false (not "unchanged").
 */
const fileEditSchema = z.object({
  kind: z.literal('file'),
  title: knowledgeSourceUpdateSchema.shape.title.unwrap(),
})

export const knowledgeEditSchemas = {
  faq: knowledgeFaqSchema,
  text: knowledgeTextSchema,
  file: fileEditSchema,
  url: knowledgeUrlSchema,
} satisfies Record<KnowledgeSourceKind, z.ZodObject>

export const knowledgeEditSchema = z.discriminatedUnion('kind', [
  knowledgeFaqSchema,
  knowledgeTextSchema,
  fileEditSchema,
  knowledgeUrlSchema,
])
export type KnowledgeEdit = z.infer<typeof knowledgeEditSchema>

/** The edit form's value as the sources service takes a change (the answer and the text share the body). */
export function knowledgeChangesOf({ kind: _kind, ...changes }: KnowledgeEdit) {
  return changes
}

/** The "Try a question" box on the Knowledge page (a GET form: `q` in the address). */
export const tryQuestionSchema = z.object({
  q: z
    .string({ error: 'Question is required' })
    .trim()
    .min(1, 'Question is required')
    .max(
      KNOWLEDGE_LIMITS.queryLength,
      `Question must be at most ${KNOWLEDGE_LIMITS.queryLength.toLocaleString('en')} characters`,
    )
    .refine(hasNoNul, NUL_MESSAGE),
})

/** Passages the "Try a question" box shows. */
export const TRY_QUESTION_LIMIT = 5

/** A score of retrieval (0-1) as the page shows it. */
export const scorePercent = (score: number) => `${Math.round(score * 100)}%`
