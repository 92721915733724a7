import { describe, expect, it } from 'vitest'
import { AppError } from '~/utils/errors'
import { withTestDatabase } from '../../../tests/setup/database'
import { emulatorOobCodes, testIdentity, uniqueEmail } from '../../../tests/setup/identity'
import { findSessionUser } from './sessions.server'
import {
  requestPasswordReset,
  resolveSession,
  signInWithEmail,
  signInWithIdToken,
  signUpWithEmail,
} from './sign-in.server'

const identity = testIdentity()
const PASSWORD = 'Secret123'
const db = withTestDatabase()

const deps = () => ({ db: db(), identity })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('email sign-up and sign-in through the Auth emulator', () => {
  it('signs up with a display name, then signs in to a new session of the same user', async () => {
    const email = uniqueEmail()
    const up = await signUpWithEmail({ ...deps(), email, password: PASSWORD, displayName: 'Grace Hopper' })
    expect(up.user).toMatchObject({ email, displayName: 'Grace Hopper' })
    const account = await identity.admin.getUser(up.user.firebaseUid)
    expect(account.displayName).toBe('Grace Hopper')

    const signedIn = await signInWithEmail({ ...deps(), email, password: PASSWORD })
    expect(signedIn.user.id).toBe(up.user.id)
    expect(signedIn.session.id).not.toBe(up.session.id)
  })

  it('turns provider errors into readable messages', async () => {
    const email = uniqueEmail()
    await signUpWithEmail({ ...deps(), email, password: PASSWORD, displayName: 'A' })
    await expect(signInWithEmail({ ...deps(), email, password: 'Wrong123' })).rejects.toThrow(
      'Incorrect email or password.',
    )
    await expect(signUpWithEmail({ ...deps(), email, password: PASSWORD, displayName: 'A' })).rejects.toThrow(
      'An account with this email already exists. Sign in instead.',
    )
    await expect(signInWithEmail({ ...deps(), email, password: 'x' })).rejects.toBeInstanceOf(AppError)
  })

  it('refuses a forged ID token', async () => {
    await expect(signInWithIdToken({ ...deps(), idToken: 'not-a-token' })).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    })
  })

  it('accepts a password reset request, and says the same for an unknown address', async () => {
    const email = uniqueEmail()
    await signUpWithEmail({ ...deps(), email, password: PASSWORD, displayName: 'A' })
    await expect(requestPasswordReset({ identity, email })).resolves.toBeUndefined()
    await expect(requestPasswordReset({ identity, email: uniqueEmail('nobody') })).resolves.toBeUndefined()
  })

  it('a password reset request makes the provider send the reset email to that address', async () => {
    const email = uniqueEmail('reset')
    await signUpWithEmail({ ...deps(), email, password: PASSWORD, displayName: 'A' })
    expect(await emulatorOobCodes(email)).toEqual([])

    await requestPasswordReset({ identity, email })
    expect(await emulatorOobCodes(email)).toEqual([
      expect.objectContaining({ email, requestType: 'PASSWORD_RESET', oobCode: expect.any(String) }),
    ])
  })
})

describe('resolveSession ends sessions the provider no longer stands behind', () => {
  it('keeps a session of a valid account', async () => {
    const { session, user } = await signUpWithEmail({
      ...deps(),
      email: uniqueEmail(),
      password: PASSWORD,
      displayName: 'A',
    })
    const resolved = await resolveSession({ ...deps(), sessionId: session.id })
    expect(resolved?.user.id).toBe(user.id)
  })

  it('a disabled account', async () => {
    const { session, user } = await signUpWithEmail({
      ...deps(),
      email: uniqueEmail(),
      password: PASSWORD,
      displayName: 'A',
    })
    await identity.admin.updateUser(user.firebaseUid, { disabled: true })
    expect(await resolveSession({ ...deps(), sessionId: session.id })).toBeUndefined()
    expect(await findSessionUser({ db: db(), sessionId: session.id })).toBeUndefined()
  })

  it('a deleted account', async () => {
    const { session, user } = await signUpWithEmail({
      ...deps(),
      email: uniqueEmail(),
      password: PASSWORD,
      displayName: 'A',
    })
    await identity.admin.deleteUser(user.firebaseUid)
    expect(await resolveSession({ ...deps(), sessionId: session.id })).toBeUndefined()
  })

  it('revoked tokens', async () => {
    const { session, user } = await signUpWithEmail({
      ...deps(),
      email: uniqueEmail(),
      password: PASSWORD,
      displayName: 'A',
    })
    // Firebase records revocation to the second: revoke in a later second than the session began.
    await sleep(1100)
    await identity.admin.revokeRefreshTokens(user.firebaseUid)
    expect(await resolveSession({ ...deps(), sessionId: session.id })).toBeUndefined()
  })

  it('keeps the session, and reports it, when the provider cannot be reached', async () => {
    const { session } = await signUpWithEmail({
      ...deps(),
      email: uniqueEmail(),
      password: PASSWORD,
      displayName: 'A',
    })
    const unreachable = { ...identity, getAccountState: () => Promise.reject(new Error('ECONNREFUSED')) }
    const reported: unknown[] = []
    const resolved = await resolveSession({
      db: db(),
      identity: unreachable,
      sessionId: session.id,
      onProviderUnreachable: (e) => reported.push(e),
    })
    expect(resolved).toBeDefined()
    expect(reported).toHaveLength(1)
  })
})
