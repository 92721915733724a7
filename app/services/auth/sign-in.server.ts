import type { Database } from '~/db/client.server'
import type { Session, User } from '~/db/schema'
import { IdentityError, type FirebaseIdentity } from '~/integrations/firebase/identity.server'
import { authErrorMessage, normalizeAuthErrorCode } from '~/lib/auth/errors'
import { AppError } from '~/utils/errors'
import { createSession, deleteUserSessions, findSessionUser } from './sessions.server'
import { upsertUser } from './users.server'

type AuthDeps = { db: Database; identity: FirebaseIdentity }
export type SignedIn = { user: User; session: Session }

/** Provider failures become AppErrors whose message is the readable text for the red box. */
async function withReadableErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof IdentityError) throw new AppError('AUTH_FAILED', authErrorMessage(error.code))
    throw error
  }
}

async function establishSession({ db, identity }: AuthDeps, idToken: string, displayName?: string) {
  const token = await identity.verifyIdToken(idToken)
  const user = await upsertUser({
    db,
    firebaseUid: token.uid,
    email: token.email,
    displayName: displayName ?? token.name,
  })
  const session = await createSession({ db, userId: user.id })
  return { user, session }
}

export function signInWithEmail(deps: AuthDeps & { email: string; password: string }): Promise<SignedIn> {
  return withReadableErrors(async () => {
    const { idToken } = await deps.identity.signInWithPassword(deps.email, deps.password)
    return establishSession(deps, idToken)
  })
}

export function signUpWithEmail(
  deps: AuthDeps & { email: string; password: string; displayName: string },
): Promise<SignedIn> {
  return withReadableErrors(async () => {
    const { idToken } = await deps.identity.signUp(deps.email, deps.password)
    await deps.identity.updateDisplayName(idToken, deps.displayName)
    return establishSession(deps, idToken, deps.displayName)
  })
}

/** Google (and any other popup provider): the browser obtained an ID token; we verify it ourselves. */
export function signInWithIdToken(deps: AuthDeps & { idToken: string }): Promise<SignedIn> {
  return withReadableErrors(() => establishSession(deps, deps.idToken))
}

/** Sends the reset email. An unknown address is not revealed: the answer is the same. */
export function requestPasswordReset(deps: { identity: FirebaseIdentity; email: string }): Promise<void> {
  return withReadableErrors(async () => {
    try {
      await deps.identity.sendPasswordReset(deps.email)
    } catch (error) {
      if (error instanceof IdentityError && normalizeAuthErrorCode(error.code) === 'EMAIL_NOT_FOUND') return
      throw error
    }
  })
}

/**
 * The signed-in user behind a session id, or undefined. The identity provider is asked every time, so that an
 * account disabled, deleted or whose tokens were revoked loses all its sessions at its next request.
 */
export async function resolveSession({
  db,
  identity,
  sessionId,
  onProviderUnreachable,
}: AuthDeps & { sessionId: string; onProviderUnreachable?: (error: unknown) => void }): Promise<
  SignedIn | undefined
> {
  const found = await findSessionUser({ db, sessionId })
  if (!found) return undefined
  let state
  try {
    state = await identity.getAccountState(found.user.firebaseUid)
  } catch (error) {
    // An outage of the provider must not sign everyone out: the session was established with a verified token.
    onProviderUnreachable?.(error)
    return found
  }
  const revoked = state?.tokensValidAfter !== undefined && state.tokensValidAfter > found.session.createdAt
  if (!state || state.disabled || revoked) {
    await deleteUserSessions({ db, userId: found.user.id })
    return undefined
  }
  return found
}
