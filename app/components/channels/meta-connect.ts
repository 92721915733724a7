import { z } from 'zod'
import { FACEBOOK_PERMISSIONS, WHATSAPP_SIGNUP_FEATURE_TYPE } from '~/lib/channels/facebook'
import { ConnectError, type FacebookSdk } from './facebook-sdk'
import { CHANNEL_UI_TEXTS } from './texts'

/**
 * The browser's half of the Facebook Page and WhatsApp connects (spec section 7, "Connect flows"): the SDK's login,
 * permissions and pages, and Embedded Signup. Each step either gives what the server needs or throws a
 * ConnectError with the message the Connection Error banner shows.
 */

/** The platform request timeout (spec section 9) for the SDK's Graph calls, which could otherwise hang. */
const GRAPH_TIMEOUT_MS = 30_000
/** Embedded Signup's message and the login callback come separately; the message is given this long to arrive. */
const SIGNUP_MESSAGE_GRACE_MS = 1_000

const graphErrorSchema = z.object({ error: z.object({ message: z.string() }) })

function graphGet(sdk: FacebookSdk, path: string, params: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ConnectError(`${CHANNEL_UI_TEXTS.facebookLoginFailed}: Facebook did not answer`)),
      GRAPH_TIMEOUT_MS,
    )
    sdk.api(path, params, (response) => {
      clearTimeout(timer)
      const failed = graphErrorSchema.safeParse(response)
      if (failed.success) {
        reject(new ConnectError(`${CHANNEL_UI_TEXTS.facebookLoginFailed}: ${failed.data.error.message}`))
      } else resolve(response)
    })
  })
}

const login = (sdk: FacebookSdk, options: Record<string, unknown>) =>
  new Promise<unknown>((resolve) => sdk.login(resolve, options))

const loginSchema = z.object({
  status: z.literal('connected'),
  authResponse: z.object({ accessToken: z.string().min(1) }),
})

/** The Facebook login with the spec's permissions; anything but a connected session is a cancelled login. */
export async function facebookLogin(sdk: FacebookSdk): Promise<{ accessToken: string }> {
  const answer = loginSchema.safeParse(
    await login(sdk, { scope: FACEBOOK_PERMISSIONS.join(','), return_scopes: true }),
  )
  if (!answer.success) throw new ConnectError(CHANNEL_UI_TEXTS.facebookLoginFailed)
  return { accessToken: answer.data.authResponse.accessToken }
}

const permissionsSchema = z.object({
  data: z.array(z.object({ permission: z.string(), status: z.string() })),
})

/** The spec's permission check (section 6): valid when every permission asked for was granted. */
export function checkPermissions(answer: unknown): { valid: boolean; missing: string[] } {
  const granted = new Set(
    (permissionsSchema.safeParse(answer).data?.data ?? [])
      .filter(({ status }) => status === 'granted')
      .map(({ permission }) => permission),
  )
  const missing = FACEBOOK_PERMISSIONS.filter((permission) => !granted.has(permission))
  return { valid: missing.length === 0, missing }
}

const accountsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      category: z.string().optional(),
      tasks: z.array(z.string()).optional(),
      access_token: z.string().optional(),
    }),
  ),
})

export type FacebookPageChoice = {
  id: string
  name: string
  category?: string
  tasks?: string[]
  accessToken: string
}

/**
 * The pages to connect: the person's pages (none: the spec's "No Facebook pages found..."), less those without a
 * page token and those this organization has connected already (none left: "No Facebook pages available to
 * connect").
 */
export function choosePages(answer: unknown, connectedPageIds: ReadonlySet<string>): FacebookPageChoice[] {
  const parsed = accountsSchema.safeParse(answer)
  if (!parsed.success) throw new ConnectError(CHANNEL_UI_TEXTS.facebookLoginFailed)
  if (parsed.data.data.length === 0) throw new ConnectError(CHANNEL_UI_TEXTS.noFacebookPages)
  const available = parsed.data.data.flatMap(({ access_token: accessToken, ...page }) =>
    accessToken && !connectedPageIds.has(page.id) ? [{ ...page, accessToken }] : [],
  )
  if (available.length === 0) throw new ConnectError(CHANNEL_UI_TEXTS.noFacebookPagesAvailable)
  return available
}

/** Login, permission check and page list: what the connect-facebook action receives. */
export async function collectFacebookPages(sdk: FacebookSdk, connectedPageIds: ReadonlySet<string>) {
  const { accessToken } = await facebookLogin(sdk)
  const { valid, missing } = checkPermissions(await graphGet(sdk, '/me/permissions'))
  if (!valid) throw new ConnectError(CHANNEL_UI_TEXTS.missingPermissions(missing))
  return { userAccessToken: accessToken, pages: choosePages(await allAccounts(sdk), connectedPageIds) }
}

const pagingSchema = z.object({
  paging: z
    .object({ next: z.string().optional(), cursors: z.object({ after: z.string() }).optional() })
    .optional(),
})
// A guard against a Graph that would hand out `next` forever: 100 requests of 100 pages each.
const MAX_ACCOUNT_REQUESTS = 100

/**
 * Every page of /me/accounts: Graph's paging is followed (its `after` cursor) while it gives a `next` link. An
 * answer that is not a page list is returned as it is, for choosePages to refuse.
 */
async function allAccounts(sdk: FacebookSdk): Promise<unknown> {
  const data: unknown[] = []
  let after: string | undefined
  for (let request = 0; request < MAX_ACCOUNT_REQUESTS; request++) {
    const params: Record<string, string> = { fields: 'id,name,category,tasks,access_token', limit: '100' }
    if (after) params.after = after
    const answer = await graphGet(sdk, '/me/accounts', params)
    const pages = accountsSchema.safeParse(answer)
    if (!pages.success) return answer
    data.push(...pages.data.data)
    const { paging } = pagingSchema.catch({}).parse(answer)
    const next = paging?.next ? paging.cursors?.after : undefined
    if (!next || next === after) break
    after = next
  }
  return { data }
}

/** The Facebook connect action's form: Conform's names for the nested list. */
export function facebookPagesFormData({
  userAccessToken,
  pages,
}: Awaited<ReturnType<typeof collectFacebookPages>>) {
  const form = new FormData()
  form.set('userAccessToken', userAccessToken)
  pages.forEach((page, index) => {
    const at = `pages[${index}]`
    form.set(`${at}.id`, page.id)
    form.set(`${at}.name`, page.name)
    form.set(`${at}.accessToken`, page.accessToken)
    if (page.category) form.set(`${at}.category`, page.category)
    page.tasks?.forEach((task, t) => form.set(`${at}.tasks[${t}]`, task))
  })
  return form
}

const signupMessageSchema = z.object({
  type: z.literal('WA_EMBEDDED_SIGNUP'),
  event: z.string(),
  data: z
    .object({
      phone_number_id: z.string().optional(),
      waba_id: z.string().optional(),
      error_message: z.string().optional(),
    })
    .catch({}),
})
export type SignupMessage = z.infer<typeof signupMessageSchema>

/**
 * Embedded Signup's session info (Meta posts a JSON string to the opener window), believed only from the trusted
 * origins; anything else on the window (other scripts, extensions, other frames) is not ours.
 */
export function parseSignupMessage(
  event: Pick<MessageEvent, 'origin' | 'data'>,
  trustedOrigins: readonly string[],
): SignupMessage | null {
  if (!trustedOrigins.includes(event.origin) || typeof event.data !== 'string') return null
  try {
    return signupMessageSchema.safeParse(JSON.parse(event.data)).data ?? null
  } catch {
    return null
  }
}

export type WhatsAppSignup = { code: string; wabaId: string; phoneNumberId: string }

const codeSchema = z.object({ authResponse: z.object({ code: z.string().optional() }) })

/** What the login callback and the session message say together: the connect payload or the spec's message. */
export function signupOutcome(loginAnswer: unknown, message: SignupMessage | null): WhatsAppSignup {
  const auth = codeSchema.safeParse(loginAnswer)
  if (message?.event === 'CANCEL' || (!auth.success && !message)) {
    throw new ConnectError(CHANNEL_UI_TEXTS.whatsappCancelled)
  }
  if (message?.event === 'ERROR') {
    const reason = message.data.error_message
    throw new ConnectError(
      reason ? `${CHANNEL_UI_TEXTS.whatsappSignupFailed}: ${reason}` : CHANNEL_UI_TEXTS.whatsappSignupFailed,
    )
  }
  const code = auth.data?.authResponse.code
  if (!code) throw new ConnectError(CHANNEL_UI_TEXTS.whatsappNoCode)
  if (message?.event === 'FINISH_ONLY_WABA') throw new ConnectError(CHANNEL_UI_TEXTS.whatsappNoPhoneNumber)
  const { waba_id: wabaId, phone_number_id: phoneNumberId } = message?.data ?? {}
  if (!message?.event.startsWith('FINISH') || !wabaId || !phoneNumberId) {
    throw new ConnectError(CHANNEL_UI_TEXTS.whatsappSignupFailed)
  }
  return { code, wabaId, phoneNumberId }
}

/**
 * WhatsApp Embedded Signup (feature type only_waba_sharing, response type code): the login answers the code, the
 * popup's message the WABA and phone number ids.
 */
export async function runEmbeddedSignup(
  sdk: FacebookSdk,
  { configId, trustedOrigins }: { configId: string; trustedOrigins: readonly string[] },
): Promise<WhatsAppSignup> {
  let message: SignupMessage | null = null
  let arrived = () => {}
  const onMessage = (event: MessageEvent) => {
    const parsed = parseSignupMessage(event, trustedOrigins)
    if (!parsed) return
    message = parsed
    arrived()
  }
  window.addEventListener('message', onMessage)
  try {
    const answer = await login(sdk, {
      config_id: configId,
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: WHATSAPP_SIGNUP_FEATURE_TYPE, sessionInfoVersion: '3' },
    })
    if (!message) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SIGNUP_MESSAGE_GRACE_MS)
        arrived = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    return signupOutcome(answer, message)
  } finally {
    window.removeEventListener('message', onMessage)
  }
}

const statusSchema = z.object({ status: z.string() })
const LOGOUT_TIMEOUT_MS = 5_000

/** An SDK call by callback that may never call back. */
function answerWithin(call: (callback: (response: unknown) => void) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Facebook did not answer')), LOGOUT_TIMEOUT_MS)
    call((response) => {
      clearTimeout(timer)
      resolve(response)
    })
  })
}

/**
 * After a Facebook channel is deleted: the SDK's session ends too (spec section 4), when this page has one. A
 * failure is only warned about; it never undoes or blocks the delete.
 */
export async function logOutOfFacebook(sdk: FacebookSdk | undefined): Promise<void> {
  if (!sdk) return
  try {
    const status = await answerWithin((callback) => sdk.getLoginStatus(callback))
    if (statusSchema.safeParse(status).data?.status !== 'connected') return
    await answerWithin((callback) => sdk.logout(callback))
  } catch (error) {
    console.warn('Facebook logout failed', error)
  }
}
