import { setNonce } from 'get-nonce'
import { createContext, useCallback, useContext, useEffect } from 'react'
import { config as zodConfig } from 'zod'

/**
 * The browser's side of the Content-Security-Policy (docs/decisions/031; the header is built in
 * utils/content-security-policy.server.ts).
 */

// The policy has no 'unsafe-eval': zod must not probe `new Function` for its object-schema JIT, since even the caught
// probe is reported as a violation. root.tsx imports this module, so this runs before any route builds a schema.
// The server keeps the JIT.
if (typeof document !== 'undefined') zodConfig({ jitless: true })

/**
 * The page's nonce. The server render gets the request's from entry.server.tsx. The browser renders the empty
 * string: it hides nonce attributes (they read ""), so that is what hydration finds, and loader data never carries
 * the nonce.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}

let hydrated = false

/** The nonce the browser keeps for the page: scripts still have it as a property when the attribute reads "". */
function pageNonce(): string {
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? ''
}

/**
 * For the root's MantineProvider `getStyleNonce`: the nonce of the <style> elements Mantine renders (CSS variables,
 * responsive styles, AppShell's media queries). Server-rendered ones hydrate with "" as above; those first mounted
 * after hydration (a client navigation into the app shell) need the page's real nonce, or the policy refuses them.
 * Once hydrated it also gives the nonce to the <style> that Mantine's modals add to lock scrolling
 * (react-remove-scroll reads it through get-nonce).
 */
export function useStyleNonce(): () => string {
  const nonce = useNonce()
  useEffect(() => {
    hydrated = true
    setNonce(pageNonce())
  }, [])
  return useCallback(() => (hydrated ? pageNonce() : nonce), [nonce])
}
