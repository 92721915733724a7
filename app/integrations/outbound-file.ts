/** A file a person sends to a customer: its bytes, its type (checked by content by the caller), its name. */
export type OutboundFile = {
  bytes: Uint8Array
  contentType: string
  fileName: string
  /** A photo is shown as a picture (Telegram's sendPhoto, WhatsApp's image); a file is a document to download. */
  kind: 'photo' | 'file'
  caption?: string
}

/**
 * How much longer than a call an upload may take, on top of the client's per-request limit: a 20 MB file over a
 * slow uplink outlasts the 30 s a platform call is given (spec section 9), and a send cut off mid-upload fails.
 */
export const OUTBOUND_FILE_UPLOAD_EXTRA_MS = 60_000

/**
 * The file as a multipart part's content. Blob's type takes ArrayBuffer-backed bytes only (`Uint8Array` may view a
 * SharedArrayBuffer): the copy satisfies it without a cast, and costs a moment next to the upload.
 */
export const fileBlob = (file: OutboundFile) =>
  new Blob([new Uint8Array(file.bytes)], { type: file.contentType })
