/** The Knowledge screen and its dialogs, one URL each (docs/decisions/045-knowledge-page-and-api.md). */
export const KNOWLEDGE_PATH = '/knowledge'

/** Settings › Knowledge: the organization's "words your customers use" (docs/decisions/073). */
export const KNOWLEDGE_SETTINGS_PATH = '/settings/knowledge'

/** The Add dialogs: `web-page` is the kind `url`. */
export const NEW_SOURCE_PATHS = {
  faq: `${KNOWLEDGE_PATH}/new/faq`,
  text: `${KNOWLEDGE_PATH}/new/text`,
  file: `${KNOWLEDGE_PATH}/new/file`,
  url: `${KNOWLEDGE_PATH}/new/web-page`,
} as const

/** Where the Upload file dialog sends its file itself once hydrated, to show the upload's progress. */
export const UPLOAD_PATH = `${KNOWLEDGE_PATH}/upload`

/** Add FAQ with its question filled in (from "Try a question"). */
export const newFaqWithQuestion = (question: string) =>
  `${NEW_SOURCE_PATHS.faq}?${new URLSearchParams({ question })}`

export type SourceAction = 'edit' | 'delete' | 'refresh'

export const sourcePath = (sourceId: string, action: SourceAction) =>
  `${KNOWLEDGE_PATH}/${encodeURIComponent(sourceId)}/${action}`
