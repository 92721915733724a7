import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'

const fakeSdk = readFileSync(new URL('../fakes/facebook-sdk.js', import.meta.url), 'utf8')

/** Meta's SDK script URL, which the app loads when FACEBOOK_SDK_URL is unset (as in the e2e stack). */
export const FACEBOOK_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js'

/** What tests/fakes/facebook-sdk.js reads from `window.__FAKE_FB__` (see its header). */
export type FakeFacebookConfig = {
  accessToken?: string
  userID?: string
  grantedScopes?: string[]
  loginStatus?: 'connected' | 'not_authorized' | 'unknown'
  signupCode?: string
  wabaId?: string
  phoneNumberId?: string
  signupEvent?: 'FINISH' | 'FINISH_ONLY_WABA' | 'CANCEL'
  graphRoot?: string
  logoutFails?: boolean
}

/** A call the page made on the fake SDK (its `FB.__calls`). */
export type FakeSdkCall = { method: string; options?: Record<string, unknown>; path?: string }

declare global {
  interface Window {
    __FAKE_FB__?: FakeFacebookConfig
  }
}

/**
 * Serves tests/fakes/facebook-sdk.js in place of Meta's script (which cannot be fetched offline), counting the
 * loads, and sets the fake's behaviour before any page script runs.
 */
export async function routeFakeFacebookSdk(page: Page, config: FakeFacebookConfig) {
  const loads = { count: 0 }
  await page.route(FACEBOOK_SDK_URL, (route) => {
    loads.count += 1
    return route.fulfill({
      status: 200,
      contentType: 'application/javascript; charset=utf-8',
      body: fakeSdk,
    })
  })
  await page.addInitScript((initial) => {
    window.__FAKE_FB__ = initial
  }, config)
  return loads
}

/** Changes the fake's behaviour in the running page (the fake reads it at each call). */
export async function setFakeFacebook(page: Page, change: FakeFacebookConfig) {
  await page.evaluate((next) => {
    window.__FAKE_FB__ = { ...window.__FAKE_FB__, ...next }
  }, change)
}

/** What the page called on the fake SDK so far. */
export async function fakeSdkCalls(page: Page): Promise<FakeSdkCall[]> {
  return page.evaluate(() => {
    const sdk: unknown = window.FB
    if (typeof sdk !== 'object' || sdk === null || !('__calls' in sdk)) return []
    const calls = sdk.__calls
    return Array.isArray(calls) ? calls : []
  })
}
