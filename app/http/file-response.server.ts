/** The types the inbox shows in the page (played, or drawn as a picture); anything else is downloaded. */
const SHOWN_INLINE = /^(audio|image)\/[\w.+-]+$|^video\/mp4$/

/**
 * A stored file as an HTTP answer: its own type (read from its content when stored; the server says nosniff on
 * every answer), never run as a page (a sandboxing policy of its own), shown in the page only when it is a sound or a picture,
 * else downloaded. One byte range (`Range: bytes=a-b`) is answered with 206, so that a player can seek.
 */
export function fileResponse(
  request: Request,
  file: { contentType: string; bytes: Buffer; fileName: string | null },
): Response {
  const inline = SHOWN_INLINE.test(file.contentType)
  const name = file.fileName?.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'file'
  const headers = new Headers({
    'Content-Type': inline ? file.contentType : 'application/octet-stream',
    'Content-Disposition': inline ? 'inline' : `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, max-age=3600',
    'Accept-Ranges': 'bytes',
  })
  const size = file.bytes.byteLength
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range') ?? '')
  if (!range || (!range[1] && !range[2])) {
    headers.set('Content-Length', String(size))
    return new Response(new Uint8Array(file.bytes), { status: 200, headers })
  }
  // "bytes=-N" is the last N bytes; "bytes=a-" runs to the end.
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]))
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1
  if (start >= size || start > end) {
    headers.set('Content-Range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`)
  headers.set('Content-Length', String(end - start + 1))
  return new Response(new Uint8Array(file.bytes.subarray(start, end + 1)), { status: 206, headers })
}
