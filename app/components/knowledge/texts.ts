import type { KnowledgeSourceKind } from '~/lib/knowledge/knowledge'

/** The Knowledge screen's words (docs/decisions/045), in the spec's style. */
export const KNOWLEDGE_TEXTS = {
  title: 'Knowledge',
  subtitle: 'The facts your agents answer from: FAQs, texts, files and web pages',
  empty: 'Add your first FAQ or document so your agents answer from your facts',
  customerWordsHint: 'Customers ask in other words than yours, or in another language?',
  customerWordsLink: 'Add the words your customers use',
  noOrganization: 'Create or choose an organization to manage its knowledge.',
  loading: 'Loading knowledge...',
  added: {
    faq: 'FAQ added',
    text: 'Text added',
    file: 'File uploaded',
    url: 'Web page added',
  } satisfies Record<KnowledgeSourceKind, string>,
  updated: 'Source updated',
  deleted: 'Source deleted',
  refreshed: (title: string) => `Processing ${title} again`,
  addFailed: (reason: string) => `Failed to add the source: ${reason}`,
  updateFailed: (reason: string) => `Failed to update the source: ${reason}`,
  deleteFailed: 'Failed to delete the source',
  refreshFailed: (reason: string) => `Failed to process the source again: ${reason}`,
  notFound: 'Knowledge source not found',
  processing: (count: number) =>
    count === 1 ? '1 source is being read into passages.' : `${count} sources are being read into passages.`,
  processingNote: 'This page updates by itself.',
  processingNoScript: 'Reload the page to see when it is ready.',
  tryTitle: 'Try a question',
  trySubtitle: 'Ask what a customer would ask, and see the passages your agents would answer from.',
  scoreHelp:
    "Match: the share of the question's words found in the passage (rarer words count more). 100% means every word.",
  noMatch: 'No passage matches. Add an FAQ with this question so your agents can answer it.',
  searching: 'Searching...',
} as const
