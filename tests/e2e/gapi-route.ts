import { readFileSync } from 'node:fs'
import type { BrowserContext } from '@playwright/test'

const fakeGapi = readFileSync(new URL('../fakes/gapi.js', import.meta.url), 'utf8')

/**
 * Serves tests/fakes/gapi.js for every request to apis.google.com, on the whole context so that the page, the Auth
 * emulator's helper iframe and the popup all get it: the Firebase SDK's popup flow needs Google's `gapi.iframes`,
 * which cannot be fetched offline.
 */
export async function routeFakeGapi(context: BrowserContext) {
  await context.route('https://apis.google.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript; charset=utf-8', body: fakeGapi }),
  )
}
