import { Authenticator } from 'remix-auth'
import { Strategy } from 'remix-auth/strategy'
import { googleSignInSchema, signInSchema, signUpSchema } from '~/lib/auth/schemas'
import {
  signInWithEmail,
  signInWithIdToken,
  signUpWithEmail,
  type SignedIn,
} from '~/services/auth/sign-in.server'
import { getRuntime } from '~/runtime/runtime.server'

/**
 * remix-auth-form's FormStrategy, but able to take the form the route has already parsed: FormStrategy (and
 * Authenticator.authenticate, which copies the request) would read the body a second time.
 */
class ParsedFormStrategy extends Strategy<SignedIn, { form: FormData }> {
  name = 'parsed-form'

  async authenticate(request: Request): Promise<SignedIn> {
    return this.verify({ form: await request.formData() })
  }

  verifyForm(form: FormData): Promise<SignedIn> {
    return this.verify({ form })
  }
}

/**
 * remix-auth strategies for the three ways in. Each validates its own fields (the route has already answered
 * field errors) and hands over to the sign-in services; the route then stores the session id in the cookie.
 */
export const authenticator = new Authenticator<SignedIn>()

authenticator.use(
  new ParsedFormStrategy(async ({ form }) => {
    const { email, password } = signInSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signInWithEmail({ db: database.db, identity, email, password })
  }),
  'sign-in',
)

authenticator.use(
  new ParsedFormStrategy(async ({ form }) => {
    const { email, password, displayName } = signUpSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signUpWithEmail({ db: database.db, identity, email, password, displayName })
  }),
  'sign-up',
)

authenticator.use(
  new ParsedFormStrategy(async ({ form }) => {
    const { idToken } = googleSignInSchema.parse(Object.fromEntries(form))
    const { database, identity } = await getRuntime()
    return signInWithIdToken({ db: database.db, identity, idToken })
  }),
  'google',
)

/** Signs in with the strategy named `intent`, from the form the route parsed once. */
export function authenticateForm(intent: 'sign-in' | 'sign-up' | 'google', form: FormData) {
  const strategy = authenticator.get<ParsedFormStrategy>(intent)
  if (!strategy) throw new ReferenceError(`Strategy ${intent} not found.`)
  return strategy.verifyForm(form)
}
