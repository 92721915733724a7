import { createCookie, redirect } from '@remix-run/node'
import { deleteSession } from '~/services/auth/sessions.server'
import { resolveSession, type SignedIn } from '~/services/auth/sign-in.server'
import { SESSION_TTL_MS } from '~/services/auth/sessions.server'
import { getRuntime } from '~/runtime/runtime.server'

const SESSION_COOKIE = '__session'

/** The signed session cookie for a configuration's secret (the benches sign one in with it too). */
export function sessionCookieWith({
  sessionSecret,
  secureCookies,
}: {
  sessionSecret: string
  secureCookies: boolean
}) {
  return createCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies,
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
    secrets: [sessionSecret],
  })
}

async function sessionCookie() {
  const { config } = await getRuntime()
  return sessionCookieWith(config)
}

async function readSessionId(request: Request): Promise<string | undefined> {
  const value: unknown = await (await sessionCookie()).parse(request.headers.get('Cookie'))
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

export async function commitSessionCookie(sessionId: string): Promise<string> {
  return (await sessionCookie()).serialize(sessionId)
}

export async function clearSessionCookie(): Promise<string> {
  return (await sessionCookie()).serialize('', { maxAge: 0 })
}

/** Loaders of one request share one lookup. */
const perRequest = new WeakMap<Request, Promise<SignedIn | undefined>>()

export function getSignedIn(request: Request): Promise<SignedIn | undefined> {
  let pending = perRequest.get(request)
  if (!pending) {
    pending = (async () => {
      const sessionId = await readSessionId(request)
      if (!sessionId) return undefined
      const { database, identity, logger } = await getRuntime()
      return resolveSession({
        db: database.db,
        identity,
        sessionId,
        onProviderUnreachable: (error) =>
          logger.warn('identity provider unreachable; session kept', { error }),
      })
    })()
    perRequest.set(request, pending)
  }
  return pending
}

/** Where a signed-out visitor goes: /login, remembering the page it wanted. */
export function loginRedirectPath(request: Request): string {
  const url = new URL(request.url)
  const target = url.pathname + url.search
  return target === '/' ? '/login' : `/login?${new URLSearchParams({ redirectTo: target })}`
}

export async function requireSignedIn(request: Request): Promise<SignedIn> {
  const signedIn = await getSignedIn(request)
  if (signedIn) return signedIn
  const headers = new Headers()
  if (request.headers.get('Cookie')?.includes(`${SESSION_COOKIE}=`)) {
    headers.append('Set-Cookie', await clearSessionCookie())
  }
  throw redirect(loginRedirectPath(request), { headers })
}

export async function signOut(request: Request): Promise<string> {
  const sessionId = await readSessionId(request)
  if (sessionId) {
    const { database } = await getRuntime()
    await deleteSession({ db: database.db, sessionId })
  }
  return clearSessionCookie()
}
