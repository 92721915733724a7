/**
 * A request body as text (and as the bytes received, for signatures), read no further than `maxBytes`: a declared Content-Length over the limit is refused
 * before anything is read, and a body that grows past it (chunked, or a lying header) is cut off there.
 */
export async function readBodyWithLimit(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; text: string; bytes: Buffer } | { ok: false; reason: 'too-large' }> {
  const declared = Number(request.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: 'too-large' }
  if (!request.body) return { ok: true, text: '', bytes: Buffer.alloc(0) }

  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return { ok: false, reason: 'too-large' }
    }
    chunks.push(value)
  }
  const bytes = Buffer.concat(chunks)
  return { ok: true, text: bytes.toString('utf8'), bytes }
}
