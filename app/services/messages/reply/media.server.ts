import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { conversations, messageMedia, messages } from '~/db/schema'
import { detectTextLanguage } from '~/integrations/language/detect.server'
import { ModelError } from '~/integrations/llm/errors'
import type { Transcriber } from '~/integrations/llm/transcription.server'
import { MediaError } from '~/integrations/media/download.server'
import { sniffMedia } from '~/integrations/media/sniff'
import { PlatformError, type Platform } from '~/integrations/platform-errors'
import type { TelegramClient } from '~/integrations/telegram/bot-api.server'
import {
  MEDIA_FAILURES,
  MEDIA_MAX_BYTES,
  transcribedText,
  type MessageMedia,
} from '~/lib/conversations/media'
import type { BurstRow, ReplyContext } from './queries.server'
import { failureReason, withReplyRetries, type ReplyRetryOptions } from './retries.server'

// A customer's voice notes, read before their burst is answered (docs/decisions/074): the file fetched from the
// platform and stored once, then transcribed; the transcript becomes the message's text, so that the prompt, the
// inbox, the search and the dashboard read it as they read text. The reply waits for it: a burst is never answered
// before its voice notes are read or known unreadable.

/** What reading media needs: set when LLM_TRANSCRIPTION_MODEL is; without it, nothing is fetched (ADR 074). */
export type MediaReaders = {
  transcriber: Transcriber
  telegram: Pick<TelegramClient, 'downloadFile'>
}

export type MediaDeps = ReplyRetryOptions & { db: Database; media?: MediaReaders }

const SPOKEN_KINDS = new Set(['voice', 'audio'])

/** A message of the burst whose voice note this process can read now. */
const isReadable = (
  row: BurstRow,
  readers: MediaReaders | undefined,
): row is BurstRow & { media: MessageMedia } =>
  Boolean(readers) &&
  SPOKEN_KINDS.has(row.kind) &&
  row.media?.state === 'pending' &&
  row.media.source === 'telegram'

/**
 * Reads the burst's voice notes that are still pending, one after the other (the customer's order). Returns
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

async function readOne(
  deps: MediaDeps,
  context: ReplyContext,
  row: BurstRow & { media: MessageMedia },
  token: string,
) {
  const readers = deps.media!
  const platform: Platform = 'telegram'
  try {
    const file = await storedOrFetched(deps, context, row, token)
    const transcript = await withReplyRetries(deps, platform, 'transcription', () =>
      readers.transcriber.transcribe(
        {
          bytes: file.bytes,
          contentType: file.contentType,
          fileName: `voice.${extensionOf(file.contentType)}`,
        },
        { signal: deps.signal },
      ),
    )
    if (!transcript.trim()) throw new MediaError(MEDIA_FAILURES.emptyTranscript)
    await storeTranscript(deps.db, context, row, transcript)
  } catch (error) {
    const reason = reasonOf(error)
    if (reason === undefined) throw error
    deps.logger.warn('voice note not read', { messageId: row.id, reason })
    await storeMediaState(deps.db, row.id, { state: 'failed', reason })
  }
}

/** Why a file could not be read, for the message; undefined for what the job must retry (the database, an abort). */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof MediaError) return error.message
  if (error instanceof ModelError) return MEDIA_FAILURES.transcription(error.message)
  if (error instanceof PlatformError) return MEDIA_FAILURES.download(failureReason(error))
  return undefined
}

/** The file as stored by an earlier run, else downloaded, its type checked by content, and stored (once). */
async function storedOrFetched(
  deps: MediaDeps,
  context: ReplyContext,
  row: BurstRow & { media: MessageMedia },
  token: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const [stored] = await deps.db
    .select({ bytes: messageMedia.bytes, contentType: messageMedia.contentType })
    .from(messageMedia)
    .where(eq(messageMedia.messageId, row.id))
  if (stored) return stored
  const { media } = row
  if (media.byteSize !== undefined && media.byteSize > MEDIA_MAX_BYTES) {
    throw new MediaError(MEDIA_FAILURES.tooLarge(MEDIA_MAX_BYTES))
  }
  const bytes = await withReplyRetries(deps, 'telegram', 'media download', () =>
    deps.media!.telegram.downloadFile(token, {
      fileId: media.ref,
      maxBytes: MEDIA_MAX_BYTES,
      signal: deps.signal,
    }),
  )
  const type = sniffMedia(bytes)
  if (type?.kind !== 'audio') throw new MediaError(MEDIA_FAILURES.unreadable)
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

const extensionOf = (contentType: string) =>
  ({ 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/mp4': 'm4a', 'audio/webm': 'webm' })[
    contentType
  ] ?? 'bin'

/**
 * The transcript as the message's text (with the caption after it), its language detected as a text's is and
 * made the conversation's, as a text message's is at ingest.
 */
async function storeTranscript(
  db: Database,
  context: ReplyContext,
  row: BurstRow & { media: MessageMedia },
  transcript: string,
) {
  const language = await detectTextLanguage(transcript)
  await db.transaction(async (tx) => {
    await tx
      .update(messages)
      .set({
        text: transcribedText(transcript, row.media.caption),
        language,
        media: sql`${messages.media} || ${JSON.stringify({ state: 'read' })}::jsonb`,
      })
      .where(and(eq(messages.id, row.id), sql`${messages.media}->>'state' = 'pending'`))
    if (language) {
      await tx.update(conversations).set({ language }).where(eq(conversations.id, context.conversation.id))
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
