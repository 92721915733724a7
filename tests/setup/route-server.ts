import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http'

type RouteArgs = { request: Request; params: Record<string, string>; context: Record<string, unknown> }
type RouteModule = {
  loader?: (args: RouteArgs) => Response | Promise<Response>
  action?: (args: RouteArgs) => Response | Promise<Response>
}
/** A path pattern (its named groups become params) and the route module it serves. */
export type ServedRoute = readonly [RegExp, RouteModule]

/**
 * Remix route modules served over real HTTP, as the server entry would serve them: each path pattern (named
 * groups become params) to its module, GET and HEAD to the loader, other methods to the action; a thrown
 * Response is the answer. A response's body is streamed as it comes (event streams), and the request's signal
 * aborts when the client goes away.
 */
export function serveRoutes(routes: readonly ServedRoute[]) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0]
      const route = routes.find(([pattern]) => pattern.test(path))
      const handler =
        route && (req.method === 'GET' || req.method === 'HEAD' ? route[1].loader : route[1].action)
      if (!route || !handler) return void res.writeHead(404).end()
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value)
      }
      const gone = new AbortController()
      res.on('close', () => gone.abort())
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
        signal: gone.signal,
      })
      let response: Response
      try {
        response = await handler({ request, params: { ...route[0].exec(path)?.groups }, context: {} })
      } catch (error) {
        // A thrown Response (a guard's redirect) is the answer, as Remix has it.
        if (!(error instanceof Response)) return void res.writeHead(500).end()
        response = error
      }
      res.writeHead(response.status, Object.fromEntries(response.headers))
      await streamBody(response, res).catch(() => res.destroy())
    })
  })
  return listenLocally(server)
}

async function streamBody(response: Response, res: ServerResponse) {
  if (!response.body) return void res.end()
  const reader = response.body.getReader()
  res.on('close', () => void reader.cancel().catch(() => undefined))
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return void res.end()
    res.write(value)
  }
}

/** A Node request handler served on a free port of 127.0.0.1. */
export function serveNode(handler: RequestListener) {
  return listenLocally(createServer(handler))
}

async function listenLocally(
  server: Server,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The value of one sample of a Prometheus text exposition (0 when absent), labels in any order. */
export function sample(exposition: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    )
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3])
  }
  return 0
}
