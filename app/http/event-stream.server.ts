/** What a stream's source writes to: named events with JSON data, and the end of the stream. */
export type EventSink = {
  send(event: string, data: unknown): void
  close(): void
}

export type EventStreamOptions = {
  /** A comment line this often, so that proxies and load balancers do not take the stream for idle. */
  heartbeatMs: number
  /** How long the browser waits before it reconnects after the stream ends or breaks (the `retry:` field). */
  retryMs: number
}

/**
 * The headers of an event stream. `no-transform` keeps the compression middleware (and proxies) from
 * compressing it, which would hold the events back until a buffer fills; `X-Accel-Buffering: no` tells nginx not
 * to buffer it.
 */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const

/**
 * A server-sent events response (text/event-stream). `open` starts the source with the stream's sink and
 * resolves, once the source is ready, to the function that stops it; that function runs once, when the client
 * goes away (`signal`), the body is cancelled, or the source closes the sink.
 */
export async function eventStream(
  signal: AbortSignal,
  open: (sink: EventSink) => Promise<() => void>,
  { heartbeatMs, retryMs }: EventStreamOptions,
): Promise<Response> {
  const encoder = new TextEncoder()
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  let heartbeat: NodeJS.Timeout | undefined
  let stop: (() => void) | undefined
  let done = false

  const finish = () => {
    if (done) return
    done = true
    clearInterval(heartbeat)
    signal.removeEventListener('abort', finish)
    stop?.()
    try {
      controller?.close()
    } catch {
      // Already closed or cancelled by the reader.
    }
  }
  const write = (text: string) => {
    if (done || !controller) return
    try {
      controller.enqueue(encoder.encode(text))
    } catch {
      finish()
    }
  }
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: finish,
  })
  const sink: EventSink = {
    send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    close: finish,
  }

  write(`retry: ${retryMs}\n\n`)
  signal.addEventListener('abort', finish, { once: true })
  try {
    const stopSource = await open(sink)
    if (done) stopSource()
    else stop = stopSource
  } catch (error) {
    finish()
    throw error
  }
  if (signal.aborted) finish()
  if (!done) heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs)
  return new Response(body, { headers: EVENT_STREAM_HEADERS })
}
