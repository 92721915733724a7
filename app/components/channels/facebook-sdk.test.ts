// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FacebookSdk } from './facebook-sdk'

const SETTINGS = { appId: '1234', sdkUrl: 'https://sdk.example/sdk.js' }
const scripts = () => [...document.querySelectorAll<HTMLScriptElement>('script#facebook-jssdk')]

/** What the real script does once fetched: defines window.FB and calls fbAsyncInit. */
function runScript() {
  const init = vi.fn()
  const sdk: FacebookSdk = { init, login: vi.fn(), logout: vi.fn(), getLoginStatus: vi.fn(), api: vi.fn() }
  window.FB = sdk
  window.fbAsyncInit?.()
  return { sdk, init }
}

// Each test is a page that has not loaded the SDK: a fresh module, no script, no window.FB.
let sdkModule: typeof import('./facebook-sdk')
beforeEach(async () => {
  vi.resetModules()
  sdkModule = await import('./facebook-sdk')
})
afterEach(() => {
  scripts().forEach((script) => script.remove())
  window.FB = undefined
  window.fbAsyncInit = undefined
  vi.useRealTimers()
})

describe('loadFacebookSdk', () => {
  it('adds the script once, on first use, and initialises the SDK with the app id and v23.0', async () => {
    const { loadFacebookSdk, loadedFacebookSdk } = sdkModule
    expect(scripts()).toHaveLength(0)
    expect(await loadedFacebookSdk()).toBeUndefined()
    const first = loadFacebookSdk(SETTINGS)
    const second = loadFacebookSdk(SETTINGS)
    expect(scripts()).toHaveLength(1)
    expect(scripts()[0]?.src).toBe(SETTINGS.sdkUrl)
    const { sdk, init } = runScript()
    await expect(first).resolves.toBe(sdk)
    await expect(second).resolves.toBe(sdk)
    expect(init).toHaveBeenCalledExactlyOnceWith({
      appId: '1234',
      version: 'v23.0',
      cookie: true,
      xfbml: false,
    })
    expect(await loadedFacebookSdk()).toBe(sdk)
    // Ready: no second script.
    await loadFacebookSdk(SETTINGS)
    expect(scripts()).toHaveLength(1)
  })

  it('fails clearly when the script cannot be fetched, and tries again on the next use', async () => {
    const { loadFacebookSdk, loadedFacebookSdk, SDK_TEXTS } = sdkModule
    const failed = loadFacebookSdk(SETTINGS)
    scripts()[0]?.dispatchEvent(new Event('error'))
    await expect(failed).rejects.toThrow(SDK_TEXTS.loadFailed)
    expect(scripts()).toHaveLength(0)
    expect(await loadedFacebookSdk()).toBeUndefined()
    const again = loadFacebookSdk(SETTINGS)
    expect(scripts()).toHaveLength(1)
    const { sdk } = runScript()
    await expect(again).resolves.toBe(sdk)
  })

  it('gives up after the timeout with its own message', async () => {
    const { loadFacebookSdk, SDK_TEXTS } = sdkModule
    vi.useFakeTimers()
    const slow = loadFacebookSdk(SETTINGS, 5_000)
    const outcome = expect(slow).rejects.toThrow(SDK_TEXTS.timedOut)
    await vi.advanceTimersByTimeAsync(5_000)
    await outcome
    expect(scripts()).toHaveLength(0)
    expect(window.fbAsyncInit).toBeUndefined()
  })
})
