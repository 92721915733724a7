import { and, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { knowledgeSources, type KnowledgeSource } from '~/db/schema'
import { crawlSite } from '~/integrations/web/crawl.server'
import { WebFetchError, type SafeFetchOptions } from '~/integrations/web/safe-fetch.server'
import { KNOWLEDGE_WEB_LIMITS } from '~/lib/knowledge/knowledge'
import type { Logger } from '~/utils/logger.server'
import { embedPassages, type KnowledgeEmbeddings } from './embeddings.server'
import { extractDocument, KnowledgeExtractError } from './extract.server'
import { replaceSourcePassages, type PassageToIndex } from './index-passages.server'
import type { KnowledgeJobData } from './knowledge-queue.server'
import { splitIntoPassages } from './passages'

export type KnowledgeProcessDeps = {
  db: Database
  logger: Logger
  /** How web pages are fetched; `allowPrivateHosts` is the tests' allowance (refused in production). */
  web: Pick<SafeFetchOptions, 'allowPrivateHosts' | 'lookup'>
  /** The embedding model, when one is configured: each passage is stored with its vector. */
  embeddings?: KnowledgeEmbeddings
}

export type ProcessOutcome = 'ready' | 'failed' | 'stale'

export const NO_TEXT_FOUND = 'No text was found in this source'

/** A failure the user can act on: shown on the source as it is. */
class SourceFailure extends Error {}

type Extracted = {
  title?: string
  passages: PassageToIndex[]
  sizeBytes?: number
  pages?: KnowledgeSource['pages']
  fileType?: string
}

async function extract(source: KnowledgeSource, deps: KnowledgeProcessDeps): Promise<Extracted> {
  switch (source.kind) {
    case 'faq':
      return { passages: [{ headingPath: [], text: source.body ?? '' }] }
    case 'text':
      return {
        passages: splitIntoPassages({ title: source.title, text: source.body ?? '', format: 'markdown' }),
      }
    case 'file': {
      const document = await extractDocument(
        new Uint8Array(source.fileData ?? Buffer.alloc(0)),
        source.fileName ?? '',
      )
      return {
        fileType: document.kind,
        passages: splitIntoPassages({ title: source.title, text: document.text, format: document.format }),
      }
    }
    case 'url': {
      const crawl = await crawlSite(source.url ?? '', {
        ...deps.web,
        maxBytes: KNOWLEDGE_WEB_LIMITS.pageBytes,
        timeoutMs: KNOWLEDGE_WEB_LIMITS.pageTimeoutMs,
        deadlineMs: KNOWLEDGE_WEB_LIMITS.crawlDeadlineMs,
        maxPages: source.crawl ? source.maxPages : 1,
      })
      const [first] = crawl.pages
      const several = crawl.pages.length > 1
      return {
        title: first?.title || undefined,
        sizeBytes: crawl.pages.reduce((sum, page) => sum + Buffer.byteLength(page.markdown, 'utf8'), 0),
        pages: [
          ...crawl.pages.map((page) => ({ url: page.url, title: page.title })),
          ...crawl.failures.map((failure) => ({ url: failure.url, title: '', error: failure.reason })),
        ],
        passages: crawl.pages.flatMap((page) =>
          splitIntoPassages({ title: page.title, text: page.markdown, format: 'markdown' }).map((draft) => ({
            ...draft,
            // With several pages, each passage says which page it is from.
            headingPath: several && page.title ? [page.title, ...draft.headingPath] : draft.headingPath,
            url: page.url,
          })),
        ),
      }
    }
  }
}

/**
 * The knowledge job: turns a source at `revision` into passages (text extracted, split, indexed) and marks it ready,
 * or failed with a reason the user can act on (an unreadable file, a refused or failing address). A source changed
 * since (a newer revision) or deleted is left alone: its own job follows. A database failure is thrown for the
 * queue to retry.
 */
export async function processKnowledgeSource(
  deps: KnowledgeProcessDeps,
  { sourceId, revision }: KnowledgeJobData,
): Promise<ProcessOutcome> {
  const [source] = await deps.db
    .select()
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.revision, revision)))
  if (!source) return 'stale'
  let extracted: Extracted
  try {
    extracted = await extract(source, deps)
    if (extracted.passages.length === 0) throw new SourceFailure(NO_TEXT_FOUND)
  } catch (error) {
    if (
      !(error instanceof SourceFailure) &&
      !(error instanceof KnowledgeExtractError) &&
      !(error instanceof WebFetchError)
    ) {
      throw error
    }
    const failed = await markFailed(deps.db, source, error.message)
    deps.logger.info('knowledge source failed', { sourceId, kind: source.kind, reason: error.message })
    return failed ? 'failed' : 'stale'
  }
  const title = source.kind === 'url' && extracted.title ? extracted.title : source.title
  if (title !== source.title || extracted.fileType) {
    await deps.db
      .update(knowledgeSources)
      .set({ title, ...(extracted.fileType && { fileType: extracted.fileType }) })
      .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.revision, revision)))
  }
  // Before the passages are written, outside their transaction: they are stored with their vectors at once (the
  // search's vector cache sees one change), and a slow endpoint holds no lock.
  const vectors =
    deps.embeddings && (await embedPassages(deps.embeddings, title, extracted.passages, { sourceId }))
  const indexed = await replaceSourcePassages(deps.db, {
    organizationId: source.organizationId,
    sourceId,
    revision,
    title,
    passages: vectors
      ? extracted.passages.map((passage, index) => ({ ...passage, embedding: vectors[index] }))
      : extracted.passages,
    sizeBytes: extracted.sizeBytes ?? source.sizeBytes,
    pages: extracted.pages,
  })
  return indexed ? 'ready' : 'stale'
}

async function markFailed(db: Database, source: KnowledgeSource, reason: string) {
  const rows = await db
    .update(knowledgeSources)
    .set({ status: 'failed', failureReason: reason, processedAt: new Date() })
    .where(and(eq(knowledgeSources.id, source.id), eq(knowledgeSources.revision, source.revision)))
    .returning({ id: knowledgeSources.id })
  return rows.length > 0
}

/** The last attempt of a job that kept failing on something else: the source says so instead of processing forever. */
export async function markProcessingFailed(db: Database, { sourceId, revision }: KnowledgeJobData) {
  await db
    .update(knowledgeSources)
    .set({ status: 'failed', failureReason: 'Processing failed: try again', processedAt: new Date() })
    .where(
      and(
        eq(knowledgeSources.id, sourceId),
        eq(knowledgeSources.revision, revision),
        eq(knowledgeSources.status, 'processing'),
      ),
    )
}
