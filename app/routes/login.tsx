import { parseWithZod } from '@conform-to/zod/v4'
import { Alert, Box, Center, Group, Image, Paper, Stack, Tabs, Text, Title } from '@mantine/core'
import { IconBrandGoogle, IconMail } from '@tabler/icons-react'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData, useNavigate, useSearchParams } from '@remix-run/react'
import { useCallback, useEffect } from 'react'
import logoUrl from '~/assets/logo.svg'
import { GoogleSignIn } from '~/components/auth/google-sign-in'
import { ResetForm } from '~/components/auth/reset-form'
import { SignInForm } from '~/components/auth/sign-in-form'
import { SignUpForm } from '~/components/auth/sign-up-form'
import type { LoginActionData, LoginIntent } from '~/components/auth/types'
import { googleSignInSchema, resetSchema, signInSchema, signUpSchema } from '~/lib/auth/schemas'
import { ALREADY_LOGGED_IN_REDIRECT_MS, PRODUCT_NAME } from '~/lib/shared/constants'
import { safeRedirectPath } from '~/lib/shared/safe-redirect'
import { requestPasswordReset } from '~/services/auth/sign-in.server'
import { sendInvitationEmailConfirmation } from '~/services/organizations/invitations.server'
import { commitSessionCookie, getSignedIn } from '~/http/auth.server'
import { authenticateForm } from '~/http/authenticator.server'
import { isAppError } from '~/utils/errors'
import { consumeAccountAttempt, signInGuard } from '~/http/rate-limit.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [
  { title: `Sign in · ${PRODUCT_NAME}` },
  {
    name: 'description',
    content: `Sign in to ${PRODUCT_NAME}: AI agents that answer your customers on every channel.`,
  },
]

/** A rate-limited attempt tells the client when to come back. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers()
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export async function loader({ request }: LoaderFunctionArgs) {
  const [signedIn, { config }] = await Promise.all([getSignedIn(request), getRuntime()])
  return {
    alreadyLoggedIn: signedIn !== undefined,
    firebase: {
      apiKey: config.firebase.apiKey,
      authDomain: config.firebase.authDomain,
      projectId: config.firebase.projectId,
      emulatorUrl: config.firebase.emulatorHost ? `http://${config.firebase.emulatorHost}` : null,
    },
  }
}

const SCHEMAS = {
  'sign-in': signInSchema,
  'sign-up': signUpSchema,
  reset: resetSchema,
  google: googleSignInSchema,
}
const isIntent = (value: unknown): value is LoginIntent => typeof value === 'string' && value in SCHEMAS
const SECRET_FIELDS = ['password', 'confirmPassword', 'idToken']

const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a moment and try again.'

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (!isIntent(intent)) {
    return data<LoginActionData>(
      { intent: null, result: { status: 'error', error: { '': ['Unknown action'] } } },
      400,
    )
  }
  const submission = parseWithZod(formData, { schema: SCHEMAS[intent] })
  if (submission.status !== 'success') {
    return data<LoginActionData>({ intent, result: submission.reply({ hideFields: SECRET_FIELDS }) }, 400)
  }
  const email = formData.get('email')
  const who = {
    ip: context.clientIp ?? 'unknown',
    account: typeof email === 'string' ? email.trim().toLowerCase() : '',
  }
  // A password is guessed at sign-in: that back-off never locks the owner out; sign-up and reset flood inboxes.
  const attempt =
    intent === 'sign-in'
      ? signInGuard.consume(who)
      : consumeAccountAttempt({ ...who, account: who.account || undefined })
  if (!attempt.allowed) {
    return data<LoginActionData>(
      { intent, result: submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields: SECRET_FIELDS }) },
      { status: 429, headers: { 'Retry-After': String(attempt.retryAfterSeconds) } },
    )
  }
  try {
    if (intent === 'reset') {
      const { identity } = await getRuntime()
      await requestPasswordReset({ identity, email: String(email).trim() })
      return data<LoginActionData>({ intent, result: submission.reply({ resetForm: true }), resetSent: true })
    }
    const { session, user } = await authenticateForm(intent, formData)
    if (intent === 'sign-in') signInGuard.succeeded(who)
    await remindToConfirmEmail(user.id)
    return redirect(safeRedirectPath(formData.get('redirectTo')), {
      headers: { 'Set-Cookie': await commitSessionCookie(session.id) },
    })
  } catch (error) {
    if (isAppError(error, 'AUTH_FAILED')) {
      if (intent === 'sign-in') signInGuard.failed(who)
      return data<LoginActionData>(
        { intent, result: submission.reply({ formErrors: [error.message], hideFields: SECRET_FIELDS }) },
        401,
      )
    }
    throw error
  }
}

/**
 * Invitations to an address wait until its account confirms it (issue 31): signing in with some waiting sends
 * the confirmation link. Sign-in goes on if the email cannot be sent; the switcher offers to send it again.
 */
async function remindToConfirmEmail(userId: string) {
  const { database, identity, logger } = await getRuntime()
  try {
    await sendInvitationEmailConfirmation({ db: database.db, identity, userId })
  } catch (error) {
    logger.warn('email confirmation not sent at sign-in', { error, userId })
  }
}

type Mode = 'signin' | 'signup' | 'reset'
const parseMode = (value: string | null): Mode => (value === 'signup' || value === 'reset' ? value : 'signin')

const HEADINGS: Record<Mode, string> = {
  signin: 'Sign in to your account',
  signup: 'Create your account',
  reset: 'Reset your password',
}

export default function LoginPage() {
  const { alreadyLoggedIn, firebase } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  const mode = parseMode(searchParams.get('mode'))
  const redirectTo = safeRedirectPath(searchParams.get('redirectTo'))

  const modeLink = useCallback(
    (next: string) => {
      const params = new URLSearchParams()
      if (next !== 'signin') params.set('mode', next)
      if (redirectTo !== '/') params.set('redirectTo', redirectTo)
      const query = params.toString()
      return query ? `/login?${query}` : '/login'
    },
    [redirectTo],
  )

  useEffect(() => {
    if (!alreadyLoggedIn) return
    const timer = setTimeout(() => navigate('/', { replace: true }), ALREADY_LOGGED_IN_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [alreadyLoggedIn, navigate])

  return (
    <Center mih="100vh" p="md" bg="gray.0" component="main">
      <Box w="100%" maw={440}>
        <Stack align="center" gap={6} mb="lg">
          <Image src={logoUrl} alt="" w={48} h={48} />
          <Title order={1} size="h2">
            {PRODUCT_NAME}
          </Title>
          <Text c="gray.7">{HEADINGS[mode]}</Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          {alreadyLoggedIn ? (
            <Alert color="green" variant="light" role="status" mb="md">
              You&apos;re already logged in! Redirecting to home page...
            </Alert>
          ) : null}
          <Tabs defaultValue="email" keepMounted={false}>
            <Tabs.List grow mb="lg">
              <Tabs.Tab value="email" leftSection={<IconMail size={16} aria-hidden />}>
                Email
              </Tabs.Tab>
              <Tabs.Tab value="google" leftSection={<IconBrandGoogle size={16} aria-hidden />}>
                Google
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="email">
              {mode === 'signin' ? (
                <SignInForm actionData={actionData} redirectTo={redirectTo} modeLink={modeLink} />
              ) : mode === 'signup' ? (
                <SignUpForm actionData={actionData} redirectTo={redirectTo} modeLink={modeLink} />
              ) : (
                <ResetForm actionData={actionData} modeLink={modeLink} />
              )}
            </Tabs.Panel>
            <Tabs.Panel value="google">
              <GoogleSignIn firebase={firebase} redirectTo={redirectTo} />
            </Tabs.Panel>
          </Tabs>
        </Paper>
        <Group justify="center" mt="md">
          <Text size="xs" c="gray.7">
            By continuing you agree to use {PRODUCT_NAME} responsibly.
          </Text>
        </Group>
      </Box>
    </Center>
  )
}
