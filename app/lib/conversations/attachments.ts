/**
 * A picture or a document a person attaches to their reply (issue 37, docs/decisions/076): what may be sent, how
 * large, and what a refusal says. Client-safe: the composer shows the same limits before anything is sent.
 */
import { PLATFORM_LABELS } from '~/lib/channels/channels'

/** The reply platforms: the channels a person can write on. */
export type AttachmentPlatform = 'telegram' | 'facebook' | 'whatsapp'

/** A picture is sent as a photo (shown in the chat), anything else as a document to download. */
export type AttachmentKind = 'photo' | 'file'

/** The largest file a person may attach, whatever the platform: as large as a customer's file we fetch. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024

const MB = 1024 * 1024

/**
 * Each platform's own limits, where they are lower than ours: WhatsApp's images are 5 MB at most, Telegram's
 * photos 10 MB (its documents 50 MB), Messenger's attachments 25 MB.
 */
export const ATTACHMENT_LIMITS: Record<AttachmentPlatform, Record<AttachmentKind, number>> = {
  telegram: { photo: 10 * MB, file: ATTACHMENT_MAX_BYTES },
  whatsapp: { photo: 5 * MB, file: ATTACHMENT_MAX_BYTES },
  facebook: { photo: ATTACHMENT_MAX_BYTES, file: ATTACHMENT_MAX_BYTES },
}

/** How long a caption may be to go with the file; a longer one (or any, on Messenger) follows it as a message. */
export const CAPTION_LIMITS: Record<AttachmentPlatform, number> = { telegram: 1024, whatsapp: 1024, facebook: 0 }

/** What the composer's file picker offers (the server checks the content whatever the name says). */
export const ATTACHMENT_ACCEPT = 'image/jpeg,image/png,application/pdf,.pdf,.docx,.xlsx,.pptx,.txt,.md,.csv'

export const ATTACHMENT_TEXTS = {
  unsupported: 'Attach a picture (JPEG or PNG) or a document (PDF, Word, Excel, PowerPoint or text)',
  tooLarge: (kind: AttachmentKind, platform: AttachmentPlatform, limitBytes: number) =>
    `${kind === 'photo' ? 'A picture' : 'A file'} sent on ${PLATFORM_LABELS[platform]} can be at most ${Math.round(limitBytes / MB)} MB`,
  requestTooLarge: `A file can be at most ${ATTACHMENT_MAX_BYTES / MB} MB`,
  /** The file of a failed reply was deleted meanwhile (the organization's retention). */
  gone: 'This file is no longer kept: attach it again in a new reply',
  fileNameTooLong: 'The file name can be at most 200 characters',
} as const

/** The platform whose limits a conversation's composer checks (those that take no replies: the strictest). */
export const attachmentPlatform = (name: string): AttachmentPlatform =>
  name === 'telegram' || name === 'facebook' || name === 'whatsapp' ? name : 'whatsapp'
