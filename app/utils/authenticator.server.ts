import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { googleSignInSchema, signInSchema, signUpSchema } from '~/lib/auth-schemas'
import {
  signInWithEmail,
  signInWithIdToken,
  signUpWithEmail,
  type SignedIn,
} from '~/services/auth/sign-in.server'
import { getRuntime } from './runtime.server'

/**
 * remix-auth strategies for the three ways in. Each parses its own form (the route has already validated it for
 * field errors) and hands over to the sign-in services; the route then stores the session id in the cookie.
 */
export const authenticator = new Authenticator<SignedIn>()

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password } = signInSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signInWithEmail({ db: database.db, identity, email, password })
  }),
  'sign-in',
)

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password, displayName } = signUpSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signUpWithEmail({ db: database.db, identity, email, password, displayName })
  }),
  'sign-up',
)

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { idToken } = googleSignInSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signInWithIdToken({ db: database.db, identity, idToken })
  }),
  'google',
)
