/**
 * A customer's voice note, photo or file as the platform announced it, and what became of it (issue 37,
 * docs/decisions/074). Client-safe: the inbox shows the same states.
 */

/** Where the file is fetched from: Telegram's file_id, WhatsApp's media id, or Messenger's attachment URL. */
export type MediaSource = 'telegram' | 'whatsapp' | 'messenger'

/**
 * `pending`: announced, not read yet. `read`: its text is the message's text (a voice note's transcript).
 * `failed`: it could not be fetched or read, for `reason`.
 */
export type MediaState = 'pending' | 'read' | 'failed'

export type MessageMedia = {
  source: MediaSource
  /** The platform's reference: Telegram's file_id, WhatsApp's media id, Messenger's URL. */
  ref: string
  /** What the platform says it is; the stored file's type is checked by its content. */
  contentType?: string
  byteSize?: number
  fileName?: string
  state: MediaState
  reason?: string
  /** The customer's caption, which the message's text keeps beside a transcript. */
  caption?: string
}

/** The largest file fetched: Telegram's Bot API serves files up to 20 MB, WhatsApp's audio is 16 MB at most. */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024

/** How long one file's download may take. */
export const MEDIA_FETCH_TIMEOUT_MS = 60_000

/** How long an organization's media are kept by default (Settings may change it). */
export const DEFAULT_MEDIA_RETENTION_DAYS = 90

/** Why a file was not read, as the inbox shows it. */
export const MEDIA_FAILURES = {
  tooLarge: (limitBytes: number) =>
    `The file is larger than ${Math.round(limitBytes / (1024 * 1024))} MB: it was not downloaded`,
  expired: 'The platform no longer has this file',
  refused: "The file's address is not a public https address: it was not downloaded",
  unreadable: (kind: string) =>
    kind === 'photo'
      ? 'The file is not a picture the agent can see'
      : 'The file is not a sound recording the agent can read',
  download: (reason: string) => `The file could not be downloaded: ${reason}`,
  transcription: (reason: string) => `The voice note could not be transcribed: ${reason}`,
  emptyTranscript: 'The voice note holds no words the agent could hear',
  vision: (reason: string) => `The photo could not be read: ${reason}`,
  document: (reason: string) => `The file could not be read: ${reason}`,
  emptyDescription: 'The agent could not make out what the photo shows',
} as const

/** The message's text once its voice note is read: what the customer said, then their caption. */
export const transcribedText = (transcript: string, caption?: string) =>
  caption?.trim() ? `${transcript.trim()}\n${caption.trim()}` : transcript.trim()

/**
 * The message's text once its photo is read: the caption, then what the photo shows, marked as the agent's reading
 * (the prompt and the inbox tell it from the customer's words).
 */
export const describedText = (description: string, caption?: string) =>
  caption?.trim() ? `${caption.trim()}\n[Photo: ${description.trim()}]` : `[Photo: ${description.trim()}]`

/** How much of a customer's document goes into the message's text (and so the prompt): its first characters. */
export const DOCUMENT_EXCERPT_CHARACTERS = 3000

/** The message's text once its document is read: the caption, then the file's name and the start of its text. */
export function documentText(fileName: string | null, text: string, caption?: string) {
  const flat = text.replace(/\s+/g, ' ').trim()
  const excerpt =
    flat.length > DOCUMENT_EXCERPT_CHARACTERS ? `${flat.slice(0, DOCUMENT_EXCERPT_CHARACTERS - 1)}…` : flat
  const file = `[File${fileName ? ` ${fileName}` : ''}: ${excerpt}]`
  return caption?.trim() ? `${caption.trim()}\n${file}` : file
}
