import { FACEBOOK_SDK_LOAD_TIMEOUT_MS, FACEBOOK_SDK_VERSION } from '~/lib/channels/facebook'

/**
 * The parts of the Facebook JS SDK (https://developers.facebook.com/docs/javascript/reference) the Channels page
 * calls. Its answers are untyped: callers parse them.
 */
export type FacebookSdk = {
  init(options: { appId: string; version: string; cookie?: boolean; xfbml?: boolean }): void
  login(callback: (response: unknown) => void, options?: Record<string, unknown>): void
  logout(callback?: (response: unknown) => void): void
  getLoginStatus(callback: (response: unknown) => void): void
  api(path: string, params: Record<string, string>, callback: (response: unknown) => void): void
}

declare global {
  interface Window {
    FB?: FacebookSdk
    fbAsyncInit?: () => void
  }
}

export type FacebookSdkSettings = { appId: string; sdkUrl: string }

export const SDK_TEXTS = {
  loadFailed:
    'The Facebook SDK could not be loaded. Check your connection (or an ad or tracker blocker) and try again.',
  timedOut: 'The Facebook SDK took too long to load. Check your connection and try again.',
} as const

/** A connect that cannot go on; its message is the one the Connection Error banner shows. */
export class ConnectError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConnectError'
  }
}

let loading: Promise<FacebookSdk> | undefined

function inject({ appId, sdkUrl }: FacebookSdkSettings, timeoutMs: number): Promise<FacebookSdk> {
  return new Promise((resolve, reject) => {
    const ready = () => {
      const sdk = window.FB
      if (!sdk) return reject(new ConnectError(SDK_TEXTS.loadFailed))
      sdk.init({ appId, version: FACEBOOK_SDK_VERSION, cookie: true, xfbml: false })
      resolve(sdk)
    }
    if (window.FB) return ready()

    const script = document.createElement('script')
    const fail = (message: string) => {
      clearTimeout(timer)
      window.fbAsyncInit = undefined
      script.remove()
      reject(new ConnectError(message))
    }
    const timer = setTimeout(() => fail(SDK_TEXTS.timedOut), timeoutMs)
    // The SDK calls this once it has defined window.FB.
    window.fbAsyncInit = () => {
      clearTimeout(timer)
      ready()
    }
    script.id = 'facebook-jssdk'
    script.src = sdkUrl
    script.async = true
    script.crossOrigin = 'anonymous'
    script.onerror = () => fail(SDK_TEXTS.loadFailed)
    document.body.appendChild(script)
  })
}

/**
 * Loads and initialises the SDK once, on first use (a user's click or intent), so that the Channels page does not
 * pay for it. A failed or timed-out load is forgotten, so that the next click tries again.
 */
export function loadFacebookSdk(
  settings: FacebookSdkSettings,
  timeoutMs = FACEBOOK_SDK_LOAD_TIMEOUT_MS,
): Promise<FacebookSdk> {
  loading ??= inject(settings, timeoutMs).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** The SDK if this page has loaded it already; never loads it. */
export async function loadedFacebookSdk(): Promise<FacebookSdk | undefined> {
  if (!loading) return undefined
  return loading.catch(() => undefined)
}
