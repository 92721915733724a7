import type { OutboundFile } from '~/integrations/outbound-file'
import { sniffMedia } from '~/integrations/media/sniff'
import {
  ATTACHMENT_LIMITS,
  ATTACHMENT_TEXTS,
  type AttachmentKind,
  type AttachmentPlatform,
} from '~/lib/conversations/attachments'
import { decodeText, isZip } from '~/services/knowledge/extract.server'
import { AppError } from '~/utils/errors'

/** A file as the composer sent it: its bytes and the name the person's computer gave it. */
export type Attachment = { bytes: Uint8Array; fileName: string }

/** Office documents by their name; their content must be the zip they all are. */
const OFFICE_TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
}
/** Text goes as a document when its name says text (or says nothing): a page named `.html` is not sent as one. */
const TEXT_NAME = /(\.(txt|md|csv)|^[^.]*)$/i

/**
 * The attachment's kind and type, read from its content: a JPEG or PNG is a photo; a PDF, an Office document or
 * clean text a file. Any other picture, sound or program is none of them, whatever its name says.
 */
function classify({ bytes, fileName }: Attachment): { kind: AttachmentKind; contentType: string } | undefined {
  const sniffed = sniffMedia(bytes)
  if (sniffed?.contentType === 'image/jpeg' || sniffed?.contentType === 'image/png') {
    return { kind: 'photo', contentType: sniffed.contentType }
  }
  if (sniffed?.kind === 'pdf') return { kind: 'file', contentType: 'application/pdf' }
  if (sniffed) return undefined
  const office = OFFICE_TYPES[/\.(\w+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '']
  if (office) return isZip(bytes) ? { kind: 'file', contentType: office } : undefined
  if (TEXT_NAME.test(fileName.trim()) && decodeText(bytes) !== undefined) {
    return { kind: 'file', contentType: 'text/plain' }
  }
  return undefined
}

/** A name the platforms and the download keep as it is: no path, no control characters, something left. */
function cleanFileName(fileName: string, kind: AttachmentKind, contentType: string) {
  const base = fileName.split(/[\\/]/).pop() ?? ''
  const clean = base.replace(/[\p{Cc}\p{Cf}"]/gu, '').trim()
  if (clean) return clean
  if (kind === 'photo') return contentType === 'image/png' ? 'picture.png' : 'picture.jpg'
  return contentType === 'application/pdf' ? 'document.pdf' : 'document'
}

/**
 * The attachment as it may be sent on `platform`, or why not (a 400 for a kind we do not send, a 413 over the
 * platform's limit). Its type comes from its content, never from the name or the browser's word.
 */
export function checkAttachment(
  platform: AttachmentPlatform,
  attachment: Attachment,
  caption: string | undefined,
): OutboundFile {
  if (attachment.fileName.length > 200) throw new AppError('VALIDATION_ERROR', ATTACHMENT_TEXTS.fileNameTooLong)
  const classified = attachment.bytes.length > 0 ? classify(attachment) : undefined
  if (!classified) throw new AppError('VALIDATION_ERROR', ATTACHMENT_TEXTS.unsupported)
  const limit = ATTACHMENT_LIMITS[platform][classified.kind]
  if (attachment.bytes.length > limit) {
    throw new AppError('PAYLOAD_TOO_LARGE', ATTACHMENT_TEXTS.tooLarge(classified.kind, platform, limit))
  }
  return {
    bytes: attachment.bytes,
    contentType: classified.contentType,
    kind: classified.kind,
    fileName: cleanFileName(attachment.fileName, classified.kind, classified.contentType),
    caption: caption?.trim() || undefined,
  }
}
