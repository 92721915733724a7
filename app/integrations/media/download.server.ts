import { PlatformError, platformErrorFromStatus, type Platform } from '~/integrations/platform-errors'

/**
 * A file the platform will not give (too large, gone, not what it claims to be): no retry helps, the message is
 * stored with `message` as its reason.
 */
export class MediaError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MediaError'
  }
}

export type DownloadOptions = {
  platform: Platform
  headers?: Record<string, string>
  maxBytes: number
  timeoutMs: number
  signal?: AbortSignal
  /** The reason stored when the file is over `maxBytes`. */
  tooLarge: string
  /** The reason stored when the platform no longer has the file (404, 410). */
  gone: string
}

/**
 * Downloads a platform's file, reading at most `maxBytes` (a larger one is dropped as soon as it is known to be:
 * by its Content-Length, else while it streams). A platform's failure is a PlatformError (retryable ones are
 * retried by the caller's policy); the URL, which may hold a token, is never in a message.
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<Buffer> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetch(url, { headers: options.headers, signal, redirect: 'follow' })
  } catch {
    if (options.signal?.aborted) throw options.signal.reason
    throw new PlatformError(options.platform, timeout.aborted ? 'TIMEOUT_ERROR' : 'NETWORK_ERROR')
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel()
    throw new MediaError(options.gone)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw platformErrorFromStatus(options.platform, response.status)
  }
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel()
    throw new MediaError(options.tooLarge)
  }
  return readCapped(response, options, timeout)
}

async function readCapped(response: Response, options: DownloadOptions, timeout: AbortSignal) {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = response.body?.getReader()
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      const chunk = read.value
      size += chunk.byteLength
      if (size > options.maxBytes) {
        await reader?.cancel()
        throw new MediaError(options.tooLarge)
      }
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof MediaError) throw error
    if (options.signal?.aborted) throw options.signal.reason
    throw new PlatformError(options.platform, timeout.aborted ? 'TIMEOUT_ERROR' : 'NETWORK_ERROR')
  }
  return Buffer.concat(chunks)
}
