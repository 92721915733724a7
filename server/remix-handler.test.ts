import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveNode } from '../tests/setup/route-server'
import { remixHandler } from './remix-handler'

// The Remix handler of the HTTP entry (server/index.ts) over real HTTP, in front of a one-route Remix build whose
// action counts the posts that reach it.
let reached = 0
const build: ServerBuild = {
  mode: 'production',
  entry: { module: { default: () => new Response('page') } },
  routes: {
    root: {
      id: 'root',
      path: '',
      module: {
        default: () => null,
        action: () => {
          reached++
          return null
        },
      },
    },
  },
  assets: {
    entry: { imports: [], module: '/entry.js' },
    routes: {
      root: {
        id: 'root',
        path: '',
        module: '/root.js',
        hasAction: true,
        hasLoader: false,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: false,
      },
    },
    url: '/manifest.js',
    version: '1',
  },
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
  isSpaMode: false,
}

let http: Awaited<ReturnType<typeof serveNode>>
beforeAll(async () => {
  const app = express()
  app.all('*', remixHandler(build, 'production', () => ({})))
  http = await serveNode(app)
})
afterAll(() => http.close())

const postForm = (headers: Record<string, string>) =>
  fetch(`${http.url}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'intent=create&name=Planted',
    redirect: 'manual',
  })

describe('a state-changing page request from another site', () => {
  it('is refused with 403 when only its Referer names another site, and reaches no action', async () => {
    for (const referer of ['https://evil.example/page', 'http://127.0.0.1:1/', 'not a url']) {
      const before = reached
      const response = await postForm({ Referer: referer })
      expect(response.status, referer).toBe(403)
      expect(await response.text()).toBe('Cross-site requests are not allowed')
      expect(reached, referer).toBe(before)
    }
  })

  it('passes with a Referer of our own origin, or with no Origin, Referer or Sec-Fetch-Site at all', async () => {
    const cases: Record<string, string>[] = [{ Referer: `${http.url}/settings` }, {}]
    for (const headers of cases) {
      const before = reached
      const response = await postForm(headers)
      expect(response.status, JSON.stringify(headers)).toBe(200)
      expect(reached).toBe(before + 1)
    }
  })

  it('is judged by its Origin when it has one, whatever its Referer says', async () => {
    const refused = await postForm({ Origin: 'https://evil.example', Referer: `${http.url}/` })
    expect(refused.status).toBe(403)
    const before = reached
    const passed = await postForm({ Origin: http.url, Referer: `${http.url}/settings` })
    expect(passed.status).toBe(200)
    expect(reached).toBe(before + 1)
  })
})
