import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  contentSecurityPolicy,
  createNonce,
  CSP_HEADER,
  defaultContentSecurityPolicy,
  NON_DOCUMENT_POLICY,
  policyDirectives,
  type PolicyConfig,
} from '~/http/content-security-policy.server'
import { loadConfig } from '~/runtime/config.server'

const NONCE = 'bm9uY2Utb2YtdGhlLXRlc3Q='

const production: PolicyConfig = {
  firebase: { authDomain: 'replypilot-prod.firebaseapp.com', emulatorHost: undefined },
  meta: { sdkUrl: 'https://connect.facebook.net/en_US/sdk.js', graphRoot: 'https://graph.facebook.com' },
}
const emulator: PolicyConfig = {
  firebase: { authDomain: 'demo-replypilot.firebaseapp.com', emulatorHost: '127.0.0.1:9099' },
  meta: { sdkUrl: 'http://localhost:3000/fake-sdk.js', graphRoot: 'http://127.0.0.1:3503' },
}

/** The header's value as directive -> sources, the way a browser reads it. */
function parse(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/)
      return [name, sources]
    }),
  )
}

describe('contentSecurityPolicy', () => {
  it('runs scripts by nonce and strict-dynamic, with no inline or eval escape hatch', () => {
    const policy = parse(contentSecurityPolicy(production, { nonce: NONCE }))
    expect(policy['script-src']).toEqual(
      expect.arrayContaining([`'nonce-${NONCE}'`, "'strict-dynamic'", "'self'"]),
    )
    expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'")
    expect(policy['script-src']).not.toContain("'unsafe-inline'")
    expect(policy['object-src']).toEqual(["'none'"])
    expect(policy['base-uri']).toEqual(["'self'"])
    expect(policy['frame-ancestors']).toEqual(["'none'"])
    expect(policy['form-action']).toEqual(["'self'"])
    expect(policy['default-src']).toEqual(["'self'"])
    expect(policy['img-src']).toEqual(["'self'", 'data:'])
  })

  it('allows inline <style> elements by the nonce only, and style attributes (Mantine sets them)', () => {
    const policy = parse(contentSecurityPolicy(production, { nonce: NONCE }))
    expect(policy['style-src']).toEqual(["'self'", `'nonce-${NONCE}'`])
    expect(policy['style-src-attr']).toEqual(["'unsafe-inline'"])
  })

  it("derives Firebase's and Meta's origins from the configuration in production", () => {
    const policy = parse(contentSecurityPolicy(production, { nonce: NONCE }))
    expect(policy['script-src']).toEqual(
      expect.arrayContaining(['https://apis.google.com', 'https://connect.facebook.net']),
    )
    expect(policy['connect-src']).toEqual([
      "'self'",
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://graph.facebook.com',
      'https://www.facebook.com',
      'https://web.facebook.com',
    ])
    expect(policy['frame-src']).toEqual([
      'https://replypilot-prod.firebaseapp.com',
      'https://www.facebook.com',
      'https://web.facebook.com',
    ])
  })

  it('sends the Firebase SDK to the Auth emulator only, when there is one', () => {
    const policy = parse(contentSecurityPolicy(emulator, { nonce: NONCE }))
    expect(policy['connect-src']).toContain('http://127.0.0.1:9099')
    expect(policy['connect-src']).toContain('http://127.0.0.1:3503')
    expect(policy['connect-src']).not.toContain('https://identitytoolkit.googleapis.com')
    expect(policy['frame-src']).toContain('http://127.0.0.1:9099')
    expect(policy['frame-src']).not.toContain('https://demo-replypilot.firebaseapp.com')
    expect(policy['script-src']).toContain('http://localhost:3000')
  })

  it('relaxes styles and allows the HMR websocket for the Vite dev server only', () => {
    const dev = parse(contentSecurityPolicy(emulator, { nonce: NONCE, dev: true }))
    expect(dev['style-src']).toEqual(["'self'", "'unsafe-inline'"])
    expect(dev['connect-src']).toEqual(expect.arrayContaining(['ws:', 'wss:']))
    expect(dev['script-src']).toContain(`'nonce-${NONCE}'`)
    const built = parse(contentSecurityPolicy(emulator, { nonce: NONCE }))
    expect(built['connect-src']).not.toContain('ws:')
  })

  it('follows the validated configuration (FACEBOOK_SDK_URL, META_GRAPH_ROOT, the emulator), each source once', () => {
    const config = loadConfig({
      SESSION_SECRET: 'a'.repeat(40),
      ENCRYPTION_KEY: 'b'.repeat(64),
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9199',
      FACEBOOK_SDK_URL: 'https://sdk.example.com/en_US/sdk.js',
      META_GRAPH_ROOT: 'https://graph.example.com/',
    })
    const policy = parse(contentSecurityPolicy(config, { nonce: NONCE }))
    expect(policy['script-src']).toContain('https://sdk.example.com')
    expect(policy['connect-src']).toEqual(
      expect.arrayContaining(['http://127.0.0.1:9199', 'https://graph.example.com']),
    )
    expect(policy['frame-src']).toContain('http://127.0.0.1:9199')
    for (const [name, sources] of Object.entries(policy))
      expect(new Set(sources).size, name).toBe(sources.length)
  })

  it('names every directive once', () => {
    const names = Object.keys(parse(contentSecurityPolicy(production, { nonce: NONCE })))
    expect(names).toEqual(Object.keys(policyDirectives(production, { nonce: NONCE })))
  })
})

describe('createNonce', () => {
  it('makes 128 random bits in base64, new each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce))
    expect(nonces.size).toBe(100)
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
  })
})

describe('defaultContentSecurityPolicy', () => {
  async function headersOf(handler: Parameters<typeof createServer>[1]) {
    const server = createServer((req, res) =>
      defaultContentSecurityPolicy(req, res, () => handler?.(req, res)),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const address = server.address()
      if (!address || typeof address === 'string') throw new Error('no port')
      const response = await fetch(`http://127.0.0.1:${address.port}/`)
      await response.text()
      return response.headers
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  it('gives a response without a policy the one that allows nothing', async () => {
    const headers = await headersOf((_req, res) => res.end('{}'))
    expect(headers.get(CSP_HEADER)).toBe(NON_DOCUMENT_POLICY)
  })

  it('leaves a page its own policy, as the only one', async () => {
    const headers = await headersOf((_req, res) => {
      res.setHeader(CSP_HEADER, "default-src 'self'")
      res.end('<!doctype html>')
    })
    expect(headers.get(CSP_HEADER)).toBe("default-src 'self'")
  })

  it('also when the status and headers are written at once', async () => {
    const headers = await headersOf((_req, res) => {
      res.setHeader('X-Other', '1')
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('missing')
    })
    expect(headers.get(CSP_HEADER)).toBe(NON_DOCUMENT_POLICY)
    expect(headers.get('X-Other')).toBe('1')
  })
})
