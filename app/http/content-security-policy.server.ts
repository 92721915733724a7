import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { META_MESSAGE_ORIGINS } from '~/lib/channels/facebook'
import type { Config } from '~/runtime/config.server'

/**
 * The Content-Security-Policy of ReplyPilot's pages (docs/decisions/031). Scripts run only with the request's
 * nonce, or when a script that had it inserts them ('strict-dynamic': the Remix chunks, the Firebase SDK's gapi
 * loader, the Facebook SDK island); third-party origins come from the validated configuration, never from a
 * second list elsewhere.
 */
export const CSP_HEADER = 'Content-Security-Policy'

/** Anything that is not a page (JSON, assets, errors): nothing may load, nothing may frame it. */
export const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'"

/** What the policy reads of the configuration. */
export type PolicyConfig = {
  firebase: Pick<Config['firebase'], 'authDomain' | 'emulatorHost'>
  meta: Pick<Config['meta'], 'sdkUrl' | 'graphRoot'>
}

export type PolicyOptions = {
  nonce: string
  /**
   * The Vite dev server: its client injects <style> elements (CSS and HMR) without a nonce, and talks to its HMR
   * websocket.
   */
  dev?: boolean
}

/** 128 random bits, base64: a fresh one for every page. */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

/** Google's endpoints the Firebase Auth JS SDK calls (sign-in with the popup's credential, token refresh). */
const FIREBASE_API_ORIGINS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com']
/** Where the Firebase Auth SDK loads gapi from, for the popup's helper iframe. */
const GAPI_ORIGIN = 'https://apis.google.com'

/**
 * The third-party origins the page talks to, by directive. On the Auth emulator the Firebase SDK talks to the
 * emulator only (its REST endpoints, and its pages in the helper iframe and the popup); otherwise to Google's
 * APIs and the project's auth domain.
 */
function thirdPartyOrigins(config: PolicyConfig) {
  const { emulatorHost, authDomain } = config.firebase
  const firebase = emulatorHost ? [`http://${emulatorHost}`] : FIREBASE_API_ORIGINS
  const firebaseFrames = emulatorHost ? [`http://${emulatorHost}`] : [`https://${authDomain}`]
  const facebookSdk = new URL(config.meta.sdkUrl).origin
  const graph = new URL(config.meta.graphRoot).origin
  return {
    // Only for browsers without 'strict-dynamic' (CSP level 2), which fall back to these hosts.
    scripts: [GAPI_ORIGIN, facebookSdk],
    // FB.api calls the Graph API from the browser; the SDK checks the login status with facebook.com.
    connect: [...firebase, graph, ...META_MESSAGE_ORIGINS],
    // The Firebase popup's helper iframe; the Facebook SDK's own frames (login and Embedded Signup are popups).
    frames: [...firebaseFrames, ...META_MESSAGE_ORIGINS],
  }
}

/** The policy's directives, in order; `contentSecurityPolicy` joins them into the header's value. */
export function policyDirectives(config: PolicyConfig, { nonce, dev = false }: PolicyOptions) {
  const origins = thirdPartyOrigins(config)
  const nonceSource = `'nonce-${nonce}'`
  return {
    'default-src': ["'self'"],
    'script-src': [nonceSource, "'strict-dynamic'", "'self'", ...origins.scripts],
    // Mantine's <style> elements carry the nonce; its components set style attributes, which cannot.
    'style-src': dev ? ["'self'", "'unsafe-inline'"] : ["'self'", nonceSource],
    'style-src-attr': ["'unsafe-inline'"],
    // The favicons, and the logo, which Vite inlines as a data: URL; no remote images (avatars, previews) today.
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...origins.connect, ...(dev ? ['ws:', 'wss:'] : [])],
    'frame-src': origins.frames,
    // The notifications' service worker (public/notifications-sw.js): 'strict-dynamic' would not let it register.
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  }
}

export function contentSecurityPolicy(config: PolicyConfig, options: PolicyOptions): string {
  return Object.entries(policyDirectives(config, options))
    .map(([directive, sources]) => [directive, ...new Set(sources)].join(' '))
    .join('; ')
}

/**
 * Express middleware: a response that has no policy of its own when its headers go out gets NON_DOCUMENT_POLICY.
 * Pages set theirs in entry.server.tsx; the Remix adapter appends headers, so a default set up front would end up
 * as a second policy, and browsers enforce both.
 */
export function defaultContentSecurityPolicy(_req: IncomingMessage, res: ServerResponse, next: () => void) {
  const writeHead = res.writeHead
  // Node calls writeHead for implicit headers too (the first write, or end()), so every response passes here.
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.hasHeader(CSP_HEADER)) this.setHeader(CSP_HEADER, NON_DOCUMENT_POLICY)
    return Reflect.apply(writeHead, this, args)
  }
  next()
}
