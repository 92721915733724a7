import { PassThrough } from 'node:stream'
import type { ActionFunctionArgs, EntryContext, LoaderFunctionArgs } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from './lib/shared/content-security-policy'
import { contentSecurityPolicy, createNonce, CSP_HEADER } from '~/http/content-security-policy.server'
import { getConfig } from '~/runtime/config.server'
import { getLogger } from '~/utils/logger.server'
import { closeRuntime, getRuntime } from '~/runtime/runtime.server'

const ABORT_DELAY = 5_000

/** Called by the server entry before it listens: configuration, database and migrations, all checked up front. */
export async function boot(): Promise<void> {
  await getRuntime()
}

export async function shutdown(): Promise<void> {
  await closeRuntime()
}

export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return
  getLogger().error('unhandled error in a route', {
    error,
    method: request.method,
    path: new URL(request.url).pathname,
    requestId: request.headers.get('x-request-id') ?? undefined,
  })
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const waitForAll = isbot(request.headers.get('user-agent') ?? '')
  // Only documents come here, so only they make a nonce: one per page, in the header and on every inline script
  // and style (Remix's, React's streaming ones, Mantine's).
  const nonce = createNonce()
  responseHeaders.set(CSP_HEADER, contentSecurityPolicy(getConfig(), { nonce, dev: import.meta.env.DEV }))
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) getLogger().error('streaming render failed', { error })
        },
      },
    )
    setTimeout(abort, ABORT_DELAY)
  })
}
