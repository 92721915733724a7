import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { conversations, messageMedia, messages } from '~/db/schema'
import { detectLanguages } from '~/integrations/language/detect.server'
import { ModelError } from '~/integrations/llm/errors'
import type { Transcriber } from '~/integrations/llm/transcription.server'
import type { PhotoReader } from '~/integrations/llm/vision.server'
import { MediaError } from '~/integrations/media/download.server'
import { downloadPublicMedia } from '~/integrations/media/public-download.server'
import { sniffMedia } from '~/integrations/media/sniff'
import { extractDocument, KnowledgeExtractError } from '~/services/knowledge/extract.server'
import type { WhatsAppClient } from '~/integrations/meta/whatsapp.server'
import { PlatformError, type Platform } from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import {
  MEDIA_FAILURES,
  MEDIA_FETCH_TIMEOUT_MS,
  MEDIA_MAX_BYTES,
  describedText,
  documentText,
  transcribedText,
  type MessageMedia,
} from '~/lib/conversations/media'
import type { BurstRow, ReplyContext } from './queries.server'
import { failureReason, withReplyRetries, type ReplyRetryOptions } from './retries.server'

// A customer's voice notes and photos, read before their burst is answered (docs/decisions/074): the file fetched
// from the platform and stored once, then transcribed or described; that text becomes the message's text, so that
// the prompt, the inbox, the search and the dashboard read it as they read text. The reply waits for it: a burst is
// never answered before its media are read or known unreadable.

/**
 * What reading media needs: a transcriber (LLM_TRANSCRIPTION_MODEL) for voice notes, a photo reader
 * (LLM_VISION_MODEL) for photos; without either, nothing is fetched (ADR 074).
 */
export type MediaReaders = {
  transcriber?: Transcriber
  vision?: PhotoReader
  telegram: Pick<TelegramClient, 'downloadFile'>
  graph: Pick<WhatsAppClient, 'downloadWhatsAppMedia'>
  /** Tests only (the Graph fake serves Messenger's attachments on 127.0.0.1 over http); refused in production. */
  allowPrivateHosts?: boolean
}

/** The platform a file comes from, for the retry policy and its logs. */
const platformOf = (media: MessageMedia): Platform =>
  media.source === 'whatsapp' ? 'whatsapp' : media.source === 'messenger' ? 'facebook' : 'telegram'

/** Messenger's attachments are 25 MB at most; we keep 20 MB. */
const MESSENGER_FILE = {
  platform: 'facebook' as const,
  maxBytes: MEDIA_MAX_BYTES,
  timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
  tooLarge: MEDIA_FAILURES.tooLarge(MEDIA_MAX_BYTES),
  gone: MEDIA_FAILURES.expired,
  refused: MEDIA_FAILURES.refused,
}

/** WhatsApp's own limits by kind (Cloud API media): audio 16 MB, images 5 MB; we keep 20 MB at most. */
const WHATSAPP_MAX_BYTES: Partial<Record<BurstRow['kind'], number>> = {
  voice: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  photo: 5 * 1024 * 1024,
}

/** The file from its platform, at most `maxBytes`. */
function download(deps: MediaDeps, row: Pending, token: string) {
  const readers = deps.media!
  const { media } = row
  // The URL came in a delivery signed with the app's secret: no token goes with it, and only to a public address.
  if (media.source === 'messenger') {
    const { allowPrivateHosts } = readers
    return downloadPublicMedia(media.ref, { ...MESSENGER_FILE, allowPrivateHosts, signal: deps.signal })
  }
  if (media.source === 'whatsapp') {
    const maxBytes = Math.min(MEDIA_MAX_BYTES, WHATSAPP_MAX_BYTES[row.kind] ?? MEDIA_MAX_BYTES)
    return readers.graph.downloadWhatsAppMedia(token, { mediaId: media.ref, maxBytes, signal: deps.signal })
  }
  return readers.telegram.downloadFile(token, {
    fileId: media.ref,
    maxBytes: MEDIA_MAX_BYTES,
    signal: deps.signal,
  })
}

export type MediaDeps = ReplyRetryOptions & { db: Database; media?: MediaReaders }

type Pending = BurstRow & { media: MessageMedia }

/** How a kind of media is read: the type its content must have, and the reader that turns it into text. */
function readerFor(kind: BurstRow['kind'], readers: MediaReaders | undefined) {
  if ((kind === 'voice' || kind === 'audio') && readers?.transcriber) {
    return { expect: 'audio' as const, read: transcribe(readers.transcriber) }
  }
  if (kind === 'photo' && readers?.vision) return { expect: 'image' as const, read: describe(readers.vision) }
  // A document needs no model of its own: read with the knowledge's extractors once media are read at all.
  if (kind === 'file' && readers) return { expect: 'document' as const, read: readDocument }
  return undefined
}

/** A PDF, Word or text file, read as the knowledge base reads one; an excerpt goes into the message's text. */
const readDocument: Read = async (_deps, file, row) => {
  try {
    const document = await extractDocument(file.bytes, row.media.fileName ?? 'file')
    return documentText(row.media.fileName ?? null, document.text, row.media.caption)
  } catch (error) {
    if (error instanceof KnowledgeExtractError) throw new MediaError(MEDIA_FAILURES.document(error.message))
    throw error
  }
}

type Read = (deps: MediaDeps, file: StoredFile, row: Pending) => Promise<string>
type StoredFile = { bytes: Buffer; contentType: string }

const transcribe =
  (transcriber: Transcriber): Read =>
  async (deps, file, row) => {
    const transcript = await withReplyRetries(deps, platformOf(row.media), 'transcription', () =>
      transcriber.transcribe(
        {
          bytes: file.bytes,
          contentType: file.contentType,
          fileName: `voice.${extensionOf(file.contentType)}`,
        },
        { signal: deps.signal },
      ),
    )
    if (!transcript.trim()) throw new MediaError(MEDIA_FAILURES.emptyTranscript)
    return transcribedText(transcript, row.media.caption)
  }

const describe =
  (vision: PhotoReader): Read =>
  async (deps, file, row) => {
    const description = await withReplyRetries(deps, platformOf(row.media), 'photo', () =>
      vision.describe(
        { bytes: file.bytes, contentType: file.contentType, caption: row.media.caption },
        { signal: deps.signal },
      ),
    )
    if (!description.trim()) throw new MediaError(MEDIA_FAILURES.emptyDescription)
    return describedText(description, row.media.caption)
  }

/** A message of the burst whose file this process can read now. */
const isReadable = (row: BurstRow, readers: MediaReaders | undefined): row is Pending =>
  row.media?.state === 'pending' && Boolean(readerFor(row.kind, readers))

/**
 * Reads the burst's media that are still pending, one after the other (the customer's order). Returns
 * whether any message changed (its context must be read again). A failure is stored on the message's media, with
 * its reason; a database error or an abort is thrown (the job runs again, and the stored file is not fetched twice).
 */
export async function readBurstMedia(
  deps: MediaDeps,
  context: ReplyContext,
  token: string,
): Promise<boolean> {
  const rows = context.burst.length ? context.burst : [{ ...context.message }]
  const pending = rows.filter((row) => isReadable(row, deps.media))
  for (const row of pending) await readOne(deps, context, row, token)
  return pending.length > 0
}

async function readOne(deps: MediaDeps, context: ReplyContext, row: Pending, token: string) {
  const reader = readerFor(row.kind, deps.media)!
  try {
    const file = await storedOrFetched(deps, context, row, token, reader.expect)
    await storeReadText(deps.db, context, row, await reader.read(deps, file, row))
  } catch (error) {
    const reason = reasonOf(error, row)
    if (reason === undefined) throw error
    deps.logger.warn('customer media not read', { messageId: row.id, kind: row.kind, reason })
    await storeMediaState(deps.db, row.id, { state: 'failed', reason })
  }
}

/** Why a file could not be read, for the message; undefined for what the job must retry (the database, an abort). */
function reasonOf(error: unknown, row: Pending): string | undefined {
  if (error instanceof MediaError) return error.message
  if (error instanceof ModelError) {
    return row.kind === 'photo'
      ? MEDIA_FAILURES.vision(error.message)
      : MEDIA_FAILURES.transcription(error.message)
  }
  if (error instanceof PlatformError) return MEDIA_FAILURES.download(failureReason(error))
  return undefined
}

/** The file as stored by an earlier run, else downloaded, its type checked by content, and stored (once). */
async function storedOrFetched(
  deps: MediaDeps,
  context: ReplyContext,
  row: Pending,
  token: string,
  expected: 'audio' | 'image' | 'document',
): Promise<StoredFile> {
  const [stored] = await deps.db
    .select({ bytes: messageMedia.bytes, contentType: messageMedia.contentType })
    .from(messageMedia)
    .where(eq(messageMedia.messageId, row.id))
  if (stored) return stored
  const { media } = row
  if (media.byteSize !== undefined && media.byteSize > MEDIA_MAX_BYTES) {
    throw new MediaError(MEDIA_FAILURES.tooLarge(MEDIA_MAX_BYTES))
  }
  const bytes = await withReplyRetries(deps, platformOf(media), 'media download', () =>
    download(deps, row, token),
  )
  const type = typeOf(bytes, expected)
  if (!type) throw new MediaError(MEDIA_FAILURES.unreadable(row.kind))
  await deps.db
    .insert(messageMedia)
    .values({
      messageId: row.id,
      organizationId: context.message.organizationId,
      contentType: type.contentType,
      byteSize: bytes.byteLength,
      bytes,
    })
    .onConflictDoNothing()
  return { bytes, contentType: type.contentType }
}

/**
 * The stored file's type, read from its content: a sound or a picture must be one. A document is whatever the
 * extractors make of it (a PDF, a Word document, text), kept as bytes of no type unless it is a PDF.
 */
function typeOf(bytes: Buffer, expected: 'audio' | 'image' | 'document') {
  const sniffed = sniffMedia(bytes)
  if (expected === 'document')
    return sniffed?.kind === 'pdf' ? sniffed : { contentType: 'application/octet-stream' }
  return sniffed?.kind === expected ? sniffed : undefined
}

const extensionOf = (contentType: string) =>
  ({ 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/mp4': 'm4a', 'audio/webm': 'webm' })[
    contentType
  ] ?? 'bin'

/**
 * What was read as the message's text (a transcript, a photo's description, a document's excerpt; the caption
 * kept), its language detected as a text's is and made the conversation's, as a text message's is at ingest (a
 * greeting or thanks alone only while the conversation has none).
 */
async function storeReadText(db: Database, context: ReplyContext, row: Pending, text: string) {
  // A transcript is the customer's own words; a photo's description and a document's text are not.
  const spoken = row.kind === 'voice' || row.kind === 'audio'
  const [{ language, greeting }] = await detectLanguages([
    { text: spoken ? text : (row.media.caption ?? ''), kind: 'text' },
  ])
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({
        text,
        language,
        media: sql`${messages.media} || ${JSON.stringify({ state: 'read' })}::jsonb`,
      })
      .where(and(eq(messages.id, row.id), sql`${messages.media}->>'state' = 'pending'`))
    if (language) {
      await tx
        .update(conversations)
        .set({ language: greeting ? sql`coalesce(${conversations.language}, ${language})` : language })
        .where(eq(conversations.id, context.conversation.id))
    }
  })
}

async function storeMediaState(
  db: Database,
  messageId: string,
  state: Pick<MessageMedia, 'state' | 'reason'>,
) {
  await db
    .update(messages)
    .set({ media: sql`${messages.media} || ${JSON.stringify(state)}::jsonb` })
    .where(and(eq(messages.id, messageId), sql`${messages.media}->>'state' = 'pending'`))
}
