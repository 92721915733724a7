import { Stack, Text } from '@mantine/core'
import { IconBrandGoogle } from '@tabler/icons-react'
import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { authErrorMessage } from '~/lib/auth/errors'
import { FormError } from './form-error'
import type { FirebaseClientConfig, LoginActionData } from './types'

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined
}

type AuthModule = typeof import('firebase/auth')
let loaded: Promise<{ auth: AuthModule; instance: import('firebase/auth').Auth }> | undefined

/** Loads the SDK once per page, on first use. */
function loadFirebaseAuth(firebase: FirebaseClientConfig) {
  loaded ??= Promise.all([import('firebase/app'), import('firebase/auth')]).then(
    ([{ initializeApp, getApps }, auth]) => {
      const app = getApps()[0] ?? initializeApp(firebase)
      const instance = auth.initializeAuth(app, {
        persistence: auth.inMemoryPersistence,
        popupRedirectResolver: auth.browserPopupRedirectResolver,
      })
      if (firebase.emulatorUrl)
        auth.connectAuthEmulator(instance, firebase.emulatorUrl, { disableWarnings: true })
      return { auth, instance }
    },
  )
  return loaded
}

/**
 * The one client island of sign-in: the Firebase JS SDK (loaded on click, so the login page stays light) opens
 * Google's popup with the account chooser forced, and the ID token is posted to the login action.
 */
export function GoogleSignIn({
  firebase,
  redirectTo,
}: {
  firebase: FirebaseClientConfig
  redirectTo: string
}) {
  const fetcher = useFetcher<LoginActionData>()
  const [popupOpen, setPopupOpen] = useState(false)
  const [clientError, setClientError] = useState<string>()
  const pending = popupOpen || fetcher.state !== 'idle'
  const serverError = fetcher.data?.intent === 'google' ? fetcher.data.result.error?.['']?.[0] : undefined

  async function signIn() {
    setClientError(undefined)
    setPopupOpen(true)
    try {
      const { auth, instance } = await loadFirebaseAuth(firebase)
      const provider = new auth.GoogleAuthProvider()
      provider.setCustomParameters({ prompt: 'select_account' })
      const credential = await auth.signInWithPopup(instance, provider)
      const idToken = await credential.user.getIdToken()
      // The server session is the only session: the SDK's own is dropped once the token is handed over.
      await auth.signOut(instance)
      fetcher.submit({ intent: 'google', idToken, redirectTo }, { method: 'post' })
    } catch (error) {
      console.warn('Google sign-in failed', errorCode(error))
      setClientError(authErrorMessage(errorCode(error)))
    } finally {
      setPopupOpen(false)
    }
  }

  return (
    <Stack gap="md">
      <FormError message={clientError ?? serverError} />
      <Text size="sm" c="dimmed">
        Use your Google account. You can choose which account on the next screen.
      </Text>
      <PendingButton
        type="button"
        variant="default"
        fullWidth
        pending={pending}
        pendingLabel="Signing in..."
        leftSection={<IconBrandGoogle size={18} aria-hidden />}
        onClick={signIn}
      >
        Sign in with Google
      </PendingButton>
    </Stack>
  )
}
