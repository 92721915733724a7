import type { KnowledgeSourceKind, KnowledgeStatus } from '~/lib/knowledge/knowledge'

/** What the Knowledge screen shows of a source (the sources service's summary, as the browser receives it). */
export type KnowledgeItem = {
  id: string
  kind: KnowledgeSourceKind
  title: string
  status: KnowledgeStatus
  failureReason: string | null
  fileName: string | null
  url: string | null
  crawl: boolean
  pages: { url: string; title: string; error?: string }[] | null
  sizeBytes: number
  passageCount: number
  updatedAt: Date | string
}

/** A source with what its edit form shows. */
export type KnowledgeDetail = KnowledgeItem & {
  question: string | null
  body: string | null
  maxPages: number
}
