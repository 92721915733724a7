import { sha256Of } from './hash'

/**
 * A multipart/form-data body as the fakes' platforms read it (RFC 7578), leniently: grammY writes
 * `content-disposition:form-data;name="photo";filename=a b.pdf` (no spaces, the file name unquoted), which
 * Telegram accepts and undici's own `formData()` refuses; fetch's FormData writes quoted names with `"`, CR and LF
 * escaped as %22, %0D and %0A (the HTML standard's encoding), decoded here.
 */

/** A file part: its name, its declared type (application/octet-stream when none) and its bytes. */
export type UploadedFile = { fileName: string; contentType: string; bytes: Uint8Array }
export type MultipartBody = { fields: Record<string, string>; files: Record<string, UploadedFile> }
/** What a fake records of a file in its calls: JSON, so that a test in another process can read what was sent. */
export type UploadedFileInfo = { fileName: string; contentType: string; size: number; sha256: string }

export const isMultipart = (contentType: string | undefined) =>
  (contentType ?? '').toLowerCase().startsWith('multipart/form-data')

export function fileInfo({ fileName, contentType, bytes }: UploadedFile): UploadedFileInfo {
  return { fileName, contentType, size: bytes.byteLength, sha256: sha256Of(bytes) }
}

const unescape = (value: string) => value.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n')

/** A parameter of the content-disposition header: quoted, or bare up to the next `;` (the file name to the end). */
function dispositionParameter(header: string, name: 'name' | 'filename'): string | undefined {
  const quoted = new RegExp(`;\\s*${name}="([^"]*)"`, 'i').exec(header)
  if (quoted) return unescape(quoted[1])
  const bare = new RegExp(`;\\s*${name}=(${name === 'filename' ? '.*$' : '[^;]*'})`, 'i').exec(header)
  return bare?.[1].trim()
}

/** Parses the body; throws on a body that is not multipart with the header's boundary. */
export function parseMultipart(body: Buffer, contentType: string): MultipartBody {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!boundary) throw new Error('multipart/form-data without a boundary')
  const delimiter = Buffer.from(`--${boundary}`)
  const result: MultipartBody = { fields: {}, files: {} }
  let start = body.indexOf(delimiter)
  if (start < 0) throw new Error('multipart/form-data body without its boundary')
  for (;;) {
    start += delimiter.length
    if (body.subarray(start, start + 2).toString() === '--') return result // the closing delimiter
    const end = body.indexOf(delimiter, start)
    if (end < 0) throw new Error('multipart/form-data body without its closing boundary')
    // A part: CRLF, its headers, a blank line, its content, and the CRLF that belongs to the next delimiter.
    const part = body.subarray(start + 2, end - 2)
    const blank = part.indexOf('\r\n\r\n')
    const headers = part
      .subarray(0, blank < 0 ? part.length : blank)
      .toString('utf8')
      .split('\r\n')
    const content = blank < 0 ? Buffer.alloc(0) : part.subarray(blank + 4)
    const header = (key: string) =>
      headers
        .find((line) => line.toLowerCase().startsWith(`${key}:`))
        ?.slice(key.length + 1)
        .trim()
    const disposition = header('content-disposition') ?? ''
    const name = dispositionParameter(disposition, 'name')
    const fileName = dispositionParameter(disposition, 'filename')
    if (name !== undefined && fileName !== undefined) {
      const type = header('content-type') ?? 'application/octet-stream'
      result.files[name] = { fileName, contentType: type, bytes: new Uint8Array(content) }
    } else if (name !== undefined) {
      result.fields[name] = content.toString('utf8')
    }
    start = end
  }
}
