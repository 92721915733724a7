import type { IncomingHttpHeaders } from 'node:http'
import {
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from '@remix-run/node'
import type express from 'express'
import type { Logger } from '../app/utils/logger.server'
import {
  bodyLimitFor,
  declaresTooLarge,
  hasBody,
  isCrossSitePageRequest,
  readBody,
  refuse,
  REFUSALS,
  SERVED_METHODS,
} from './request-guards'

/**
 * Remix behind Express, with the body already read: @remix-run/express's own handler would hand Remix the
 * socket's stream, so that any route could read a body of any size. Here a body is read no further than its
 * path's limit (413 beyond it), and Remix receives it whole; a state-changing page request from another site is
 * refused with 403 before it reaches an action.
 */
export function remixHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: string,
  loadContext: (req: express.Request) => AppLoadContext,
): express.RequestHandler {
  const handleRequest = createRequestHandler(build, mode)
  return async (req, res, next) => {
    try {
      const path = req.path
      if (!SERVED_METHODS.has(req.method)) {
        res.setHeader('Allow', [...SERVED_METHODS].join(', '))
        return refuse(req, res, REFUSALS.method)
      }
      if (isCrossSitePageRequest(req, path)) return refuse(req, res, REFUSALS.crossSite)
      let body: Uint8Array<ArrayBuffer> | undefined
      if (hasBody(req)) {
        const { maxBytes, refusal } = bodyLimitFor(path)
        body = declaresTooLarge(req, maxBytes) ? undefined : await readBody(req, maxBytes)
        if (!body) return refuse(req, res, refusal)
      }
      const response = await handleRequest(remixRequest(req, res, body), loadContext(req))
      await sendRemixResponse(res, response)
    } catch (error) {
      next(error)
    }
  }
}

/**
 * What Express's own error handler would answer as an HTML page: a path Express cannot decode (`%zz`) is a 400,
 * anything else a logged 500, both in the form the caller reads.
 */
export function errorHandler(logger: Logger): express.ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error)
    if (error instanceof URIError) return refuse(req, res, REFUSALS.malformedUrl)
    logger.error('request failed', { requestId: req.get('x-request-id'), path: req.path, error })
    refuse(req, res, REFUSALS.failed)
  }
}

/** The Fetch Request Remix reads, as @remix-run/express builds it, with the body already in hand. */
function remixRequest(
  req: express.Request,
  res: express.Response,
  body: Uint8Array<ArrayBuffer> | undefined,
): Request {
  // req.hostname follows "trust proxy"; the port comes from X-Forwarded-Host or Host.
  const portOf = (header: string | undefined) => Number.parseInt(header?.split(':')[1] ?? '', 10)
  const port = [portOf(req.get('X-Forwarded-Host')), portOf(req.get('host'))].find(Number.isSafeInteger)
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
  let controller: AbortController | undefined = new AbortController()
  // A client gone before the answer was written aborts the loaders and actions still running for it.
  res.on('finish', () => (controller = undefined))
  res.on('close', () => controller?.abort())
  const withBody = body && req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url.href, {
    method: req.method,
    headers: remixHeaders(req.headers),
    signal: controller.signal,
    ...(withBody ? { body } : {}),
  })
}

function remixHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, one)
    }
  }
  return headers
}

/** Writes a route's Response; an event stream's headers go out at once, and its body as it comes. */
export async function sendRemixResponse(res: express.Response, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [name, value] of response.headers.entries()) res.append(name, value)
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders()
  if (response.body) await writeReadableStreamToWritable(response.body, res)
  else res.end()
}
