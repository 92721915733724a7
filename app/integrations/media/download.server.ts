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

/** An answer being read, whichever client fetched it: its status, declared length and body. */
export type OpenedDownload = {
  status: number
  /** Content-Length, NaN when there is none. */
  declaredLength: number
  chunks: AsyncIterable<Uint8Array>
  discard(): Promise<void> | void
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
  return readDownload(openedFetch(response), options, timeout)
}

function openedFetch(response: Response): OpenedDownload {
  const reader = response.body?.getReader()
  return {
    status: response.status,
    declaredLength: Number(response.headers.get('content-length') ?? Number.NaN),
    chunks: {
      async *[Symbol.asyncIterator]() {
        for (let read = await reader?.read(); read && !read.done; read = await reader?.read())
          yield read.value
      },
    },
    discard: () => reader?.cancel(),
  }
}

/**
 * The file of an opened answer: a 404 or 410 is `gone`, another failure a PlatformError, and at most `maxBytes`
 * are read (`timeout` tells a timeout from a broken connection).
 */
export async function readDownload(
  opened: OpenedDownload,
  options: DownloadOptions,
  timeout: AbortSignal,
): Promise<Buffer> {
  if (opened.status === 404 || opened.status === 410) {
    await opened.discard()
    throw new MediaError(options.gone)
  }
  if (opened.status < 200 || opened.status > 299) {
    await opened.discard()
    throw platformErrorFromStatus(options.platform, opened.status)
  }
  if (Number.isFinite(opened.declaredLength) && opened.declaredLength > options.maxBytes) {
    await opened.discard()
    throw new MediaError(options.tooLarge)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of opened.chunks) {
      size += chunk.byteLength
      if (size > options.maxBytes) {
        await opened.discard()
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
