import { getApps, initializeApp, type App } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import { z } from 'zod'

export type FirebaseConfig = {
  projectId: string
  apiKey: string
  emulatorHost: string | undefined
}

/** A failure reported by Firebase Authentication; `code` is its own (EMAIL_EXISTS, user-disabled...). */
export class IdentityError extends Error {
  constructor(public readonly code: string) {
    super(`identity provider: ${code}`)
    this.name = 'IdentityError'
  }
}

export type VerifiedToken = {
  uid: string
  email: string | undefined
  name: string | undefined
  authTime: number
}
export type AccountState = { disabled: boolean; tokensValidAfter: Date | undefined } | undefined

export type FirebaseIdentity = {
  signUp(email: string, password: string): Promise<{ idToken: string }>
  signInWithPassword(email: string, password: string): Promise<{ idToken: string }>
  updateDisplayName(idToken: string, displayName: string): Promise<void>
  sendPasswordReset(email: string): Promise<void>
  /** Emails the account a link that confirms it owns its address (Firebase's own email and page). */
  sendEmailVerification(uid: string): Promise<void>
  /** Whether the account has confirmed its address now (not when its last ID token was issued). */
  isEmailVerified(uid: string): Promise<boolean>
  verifyIdToken(idToken: string): Promise<VerifiedToken>
  getAccountState(uid: string): Promise<AccountState>
  admin: Auth
}

const REQUEST_TIMEOUT_MS = 30_000

const errorBody = z.object({ error: z.object({ message: z.string() }) })
const tokenBody = z.object({ idToken: z.string() })

function adminApp(config: FirebaseConfig): App {
  const name = `replypilot-${config.projectId}`
  const existing = getApps().find((app) => app.name === name)
  if (existing) return existing
  if (config.emulatorHost) {
    // firebase-admin reads the emulator address only from the environment.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost
  }
  return initializeApp({ projectId: config.projectId }, name)
}

export function createFirebaseIdentity(config: FirebaseConfig): FirebaseIdentity {
  const restRoot = config.emulatorHost
    ? `http://${config.emulatorHost}/identitytoolkit.googleapis.com/v1`
    : 'https://identitytoolkit.googleapis.com/v1'
  const auth = getAuth(adminApp(config))

  async function call(endpoint: string, body: Record<string, unknown>): Promise<unknown> {
    let response: Response
    try {
      response = await fetch(`${restRoot}/${endpoint}?key=${encodeURIComponent(config.apiKey)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch {
      throw new IdentityError('NETWORK_ERROR')
    }
    const json: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      const parsed = errorBody.safeParse(json)
      throw new IdentityError(parsed.success ? parsed.data.error.message : `HTTP_${response.status}`)
    }
    return json
  }

  return {
    admin: auth,
    async signUp(email, password) {
      const signedUp = tokenBody.parse(await call('accounts:signUp', { email, password, returnSecureToken: true }))
      if (!config.emulatorHost) return signedUp
      // The emulator dates a new account's first token from the start of the request and the account's "tokens
      // valid since" from a moment later: across a second's boundary, that token reads as revoked. A sign-in's
      // token is dated after both.
      return tokenBody.parse(
        await call('accounts:signInWithPassword', { email, password, returnSecureToken: true }),
      )
    },
    async signInWithPassword(email, password) {
      return tokenBody.parse(
        await call('accounts:signInWithPassword', { email, password, returnSecureToken: true }),
      )
    },
    async updateDisplayName(idToken, displayName) {
      await call('accounts:update', { idToken, displayName, returnSecureToken: false })
    },
    async sendPasswordReset(email) {
      await call('accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email })
    },
    async sendEmailVerification(uid) {
      // VERIFY_EMAIL takes the account's own ID token, which the server does not keep: it signs in as the
      // account with a custom token for the one call (firebase-admin signs it; the emulator accepts it unsigned).
      const customToken = await auth.createCustomToken(uid)
      const { idToken } = tokenBody.parse(
        await call('accounts:signInWithCustomToken', { token: customToken, returnSecureToken: true }),
      )
      await call('accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken })
    },
    async isEmailVerified(uid) {
      try {
        return (await auth.getUser(uid)).emailVerified
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'auth/user-not-found') return false
        throw error
      }
    },
    async verifyIdToken(idToken) {
      try {
        const decoded = await auth.verifyIdToken(idToken, true)
        const name = typeof decoded.name === 'string' ? decoded.name : undefined
        return { uid: decoded.uid, email: decoded.email, name, authTime: decoded.auth_time }
      } catch (error) {
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'ID_TOKEN_INVALID'
        throw new IdentityError(code.replace(/^auth\//, ''))
      }
    },
    async getAccountState(uid) {
      try {
        const user = await auth.getUser(uid)
        const validAfter = user.tokensValidAfterTime ? new Date(user.tokensValidAfterTime) : undefined
        return { disabled: user.disabled, tokensValidAfter: validAfter }
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'auth/user-not-found')
          return undefined
        throw error
      }
    },
  }
}
