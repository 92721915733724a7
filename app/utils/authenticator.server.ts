import { Authenticator } from 'remix-auth'
import { Strategy } from 'remix-auth/strategy'
import { googleSignInSchema, signInSchema, signUpSchema } from '~/lib/auth-schemas'
import {
  signInWithEmail,
  signInWithIdToken,
  signUpWithEmail,
  type SignedIn,
} from '~/services/auth/sign-in.server'
import { getRuntime } from './runtime.server'

/** Forms the login action has already parsed, by request: a strategy reads the form from here, not the body again. */
const parsedForms = new WeakMap<Request, FormData>()

/**
 * remix-auth-form's FormStrategy, but with the form the route parsed (it would clone the request and parse its
 * body a second time). A request whose form was not handed over is parsed here, once.
 */
class ParsedFormStrategy extends Strategy<SignedIn, { form: FormData }> {
  name = 'parsed-form'

  async authenticate(request: Request): Promise<SignedIn> {
    return this.verify({ form: parsedForms.get(request) ?? (await request.formData()) })
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
export function authenticateForm(intent: 'sign-in' | 'sign-up' | 'google', request: Request, form: FormData) {
  parsedForms.set(request, form)
  return authenticator.authenticate(intent, request)
}
