import { and, desc, eq, sql } from 'drizzle-orm'
import { knowledgeSources, type KnowledgeSource } from '~/db/schema'
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeSourceInput,
  type KnowledgeSourceKind,
  type KnowledgeSourceUpdate,
} from '~/lib/knowledge/knowledge'
import { isUuid } from '~/lib/shared/input'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { uploadRefusal } from './extract.server'
import { deleteSourceWithPassages } from './index-passages.server'
import type { KnowledgeJobs } from './knowledge-queue.server'

export const KNOWLEDGE_SOURCE_NOT_FOUND = 'Knowledge source not found'

/** An uploaded file as the edge read it: its bytes are checked by content in the job, not by name here. */
export type UploadedFile = { name: string; bytes: Uint8Array }
/** A new file source: the file, and the title it is shown with (its name when left out). */
export type NewFileSource = { kind: 'file'; file: UploadedFile; title?: string }

const summaryColumns = {
  id: knowledgeSources.id,
  organizationId: knowledgeSources.organizationId,
  kind: knowledgeSources.kind,
  title: knowledgeSources.title,
  status: knowledgeSources.status,
  failureReason: knowledgeSources.failureReason,
  fileName: knowledgeSources.fileName,
  fileType: knowledgeSources.fileType,
  url: knowledgeSources.url,
  crawl: knowledgeSources.crawl,
  maxPages: knowledgeSources.maxPages,
  pages: knowledgeSources.pages,
  sizeBytes: knowledgeSources.sizeBytes,
  passageCount: knowledgeSources.passageCount,
  processedAt: knowledgeSources.processedAt,
  createdAt: knowledgeSources.createdAt,
  updatedAt: knowledgeSources.updatedAt,
}

const viewColumns = { ...summaryColumns, question: knowledgeSources.question, body: knowledgeSources.body }

/** A source as the list shows it (without its text or bytes). */
export type KnowledgeSourceSummary = Pick<KnowledgeSource, keyof typeof summaryColumns>
/** A source with what it holds, for its page and its edit form (never the file's bytes). */
export type KnowledgeSourceView = KnowledgeSourceSummary & Pick<KnowledgeSource, 'question' | 'body'>

const byId = (scope: OrganizationScope, id: string) =>
  and(eq(knowledgeSources.id, id), eq(knowledgeSources.organizationId, scope.organizationId))

export async function listKnowledgeSources(scope: OrganizationScope): Promise<KnowledgeSourceSummary[]> {
  return scope.db
    .select(summaryColumns)
    .from(knowledgeSources)
    .where(eq(knowledgeSources.organizationId, scope.organizationId))
    .orderBy(desc(knowledgeSources.createdAt), knowledgeSources.id)
}

export async function getKnowledgeSource(scope: OrganizationScope, id: string): Promise<KnowledgeSourceView> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', KNOWLEDGE_SOURCE_NOT_FOUND)
  const [source] = await scope.db
    .select(viewColumns)
    .from(knowledgeSources)
    .where(byId(scope, id))
  if (!source) throw new AppError('NOT_FOUND', KNOWLEDGE_SOURCE_NOT_FOUND)
  return source
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8')

function hostTitle(url: string): string {
  const parsed = new URL(url)
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`.slice(
    0,
    KNOWLEDGE_LIMITS.titleLength,
  )
}

/** The stored columns of a new source of each kind (its title until processing finds a better one). */
function columnsOf(input: KnowledgeSourceInput | NewFileSource) {
  switch (input.kind) {
    case 'faq':
      return {
        kind: input.kind,
        title: input.question.slice(0, KNOWLEDGE_LIMITS.titleLength),
        question: input.question,
        body: input.answer,
        sizeBytes: byteLength(input.question) + byteLength(input.answer),
      }
    case 'text':
      return { kind: input.kind, title: input.title, body: input.text, sizeBytes: byteLength(input.text) }
    case 'url':
      return {
        kind: input.kind,
        title: hostTitle(input.url),
        url: input.url,
        crawl: input.crawl,
        maxPages: input.crawl ? input.maxPages : 1,
      }
    case 'file':
      return {
        kind: input.kind,
        title: (input.title || input.file.name).slice(0, KNOWLEDGE_LIMITS.titleLength),
        fileName: input.file.name,
        fileData: Buffer.from(input.file.bytes),
        sizeBytes: input.file.bytes.byteLength,
      }
  }
}

/** Stores a new source as processing and sends its job, in one transaction. */
export async function createKnowledgeSource(
  scope: OrganizationScope,
  input: KnowledgeSourceInput | NewFileSource,
  { jobs }: { jobs: KnowledgeJobs },
): Promise<KnowledgeSourceView> {
  if (input.kind === 'file') checkFile(input.file)
  const id = await scope.db.transaction(async (tx) => {
    const [source] = await tx
      .insert(knowledgeSources)
      .values({ ...columnsOf(input), organizationId: scope.organizationId, createdBy: scope.userId })
      .returning({ id: knowledgeSources.id, revision: knowledgeSources.revision })
    await jobs(tx, { sourceId: source.id, revision: source.revision })
    return source.id
  })
  return getKnowledgeSource(scope, id)
}

export function checkFile(file: UploadedFile) {
  if (file.bytes.byteLength === 0) throw new AppError('VALIDATION_ERROR', 'The file is empty')
  if (file.bytes.byteLength > KNOWLEDGE_LIMITS.fileBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 10 MB')
  }
  const refusal = uploadRefusal(file.bytes, file.name)
  if (refusal) throw new AppError('VALIDATION_ERROR', refusal)
}

/** Which fields each kind of source may change. */
const EDITABLE: Record<KnowledgeSourceKind, (keyof KnowledgeSourceUpdate)[]> = {
  faq: ['question', 'answer'],
  text: ['title', 'text'],
  file: ['title'],
  url: ['url', 'crawl', 'maxPages'],
}

/**
 * Changes a source and processes it again (a new revision: a job still running for the old one writes nothing).
 * A field another kind of source has is refused.
 */
export async function updateKnowledgeSource(
  scope: OrganizationScope,
  id: string,
  changes: KnowledgeSourceUpdate,
  { jobs }: { jobs: KnowledgeJobs },
): Promise<KnowledgeSourceView> {
  const source = await getKnowledgeSource(scope, id)
  const foreign = Object.keys(changes).filter(
    (key) => !EDITABLE[source.kind].includes(key as keyof KnowledgeSourceUpdate),
  )
  if (foreign.length > 0) {
    throw new AppError('VALIDATION_ERROR', `A ${source.kind} source has no ${foreign.join(', ')}`)
  }
  const question = changes.question ?? source.question ?? ''
  const body = changes.answer ?? changes.text ?? source.body ?? ''
  const set: Partial<typeof knowledgeSources.$inferInsert> = {}
  if (source.kind === 'faq') {
    Object.assign(set, {
      question,
      body,
      title: question.slice(0, KNOWLEDGE_LIMITS.titleLength),
      sizeBytes: byteLength(question) + byteLength(body),
    })
  } else if (source.kind === 'text') {
    Object.assign(set, { title: changes.title ?? source.title, body, sizeBytes: byteLength(body) })
  } else if (source.kind === 'file') {
    if (changes.title) set.title = changes.title
  } else {
    const url = changes.url ?? source.url ?? ''
    const crawl = changes.crawl ?? source.crawl
    Object.assign(set, {
      url,
      title: changes.url ? hostTitle(url) : source.title,
      crawl,
      maxPages: crawl ? (changes.maxPages ?? source.maxPages) : 1,
    })
  }
  // Every change is processed again: even a file's new title is in its passages' vectors (weighted A).
  return reprocess(scope, id, set, jobs)
}

/** Fetches a web page again (or processes any other source again): a new revision and its job. */
export async function refreshKnowledgeSource(
  scope: OrganizationScope,
  id: string,
  { jobs }: { jobs: KnowledgeJobs },
): Promise<KnowledgeSourceView> {
  await getKnowledgeSource(scope, id)
  return reprocess(scope, id, {}, jobs)
}

/**
 * The source as this change left it (processing): read back after the job is sent, the worker may already have
 * processed it, and the answer would not say what the change did.
 */
async function reprocess(
  scope: OrganizationScope,
  id: string,
  set: Partial<typeof knowledgeSources.$inferInsert>,
  jobs: KnowledgeJobs,
): Promise<KnowledgeSourceView> {
  return scope.db.transaction(async (tx) => {
    const [source] = await tx
      .update(knowledgeSources)
      .set({
        ...set,
        status: 'processing',
        failureReason: null,
        revision: sql`${knowledgeSources.revision} + 1`,
        updatedAt: new Date(),
      })
      .where(byId(scope, id))
      .returning({ ...viewColumns, revision: knowledgeSources.revision })
    if (!source) throw new AppError('NOT_FOUND', KNOWLEDGE_SOURCE_NOT_FOUND)
    await jobs(tx, { sourceId: source.id, revision: source.revision })
    const { revision: _revision, ...view } = source
    return view
  })
}

/** Deletes a source; its passages go in the same statement (retrieval never returns them again). */
export async function deleteKnowledgeSource(scope: OrganizationScope, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteSourceWithPassages(scope.db, scope.organizationId, id))) {
    throw new AppError('NOT_FOUND', KNOWLEDGE_SOURCE_NOT_FOUND)
  }
}
