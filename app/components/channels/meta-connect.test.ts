import { describe, expect, it } from 'vitest'
import { FACEBOOK_PERMISSIONS } from '~/lib/channels/facebook'
import { CHANNEL_UI_TEXTS } from './texts'
import { ConnectError, type FacebookSdk } from './facebook-sdk'
import {
  checkPermissions,
  choosePages,
  collectFacebookPages,
  parseSignupMessage,
  signupOutcome,
} from './meta-connect'

const TRUSTED = ['https://www.facebook.com', 'https://web.facebook.com']
const granted = (names: readonly string[], status = 'granted') =>
  names.map((permission) => ({ permission, status }))
const signupMessage = (event: string, data: Record<string, string>) =>
  JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data, version: 3 })

function failureOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof ConnectError) return error.message
    throw error
  }
  throw new Error('expected a ConnectError')
}

describe('checkPermissions', () => {
  it('is valid when every permission of the spec is granted', () => {
    expect(checkPermissions({ data: granted(FACEBOOK_PERMISSIONS) })).toEqual({ valid: true, missing: [] })
  })

  it('lists the declined and the absent ones', () => {
    const answer = {
      data: [
        ...granted(FACEBOOK_PERMISSIONS.filter((p) => p !== 'pages_messaging' && p !== 'email')),
        ...granted(['pages_messaging'], 'declined'),
      ],
    }
    expect(checkPermissions(answer)).toEqual({ valid: false, missing: ['pages_messaging', 'email'] })
    expect(checkPermissions({ nonsense: true })).toEqual({ valid: false, missing: [...FACEBOOK_PERMISSIONS] })
  })
})

describe('choosePages', () => {
  const page = (id: string, token?: string) => ({
    id,
    name: `Page ${id}`,
    category: 'Shop',
    tasks: ['MESSAGING'],
    access_token: token,
  })

  it('keeps the pages with a token that are not connected yet', () => {
    const answer = { data: [page('1', 't1'), page('2'), page('3', 't3')] }
    expect(choosePages(answer, new Set(['3']))).toEqual([
      { id: '1', name: 'Page 1', category: 'Shop', tasks: ['MESSAGING'], accessToken: 't1' },
    ])
  })

  it("says the spec's messages when there are no pages, or none left to connect", () => {
    expect(failureOf(() => choosePages({ data: [] }, new Set()))).toBe(CHANNEL_UI_TEXTS.noFacebookPages)
    expect(failureOf(() => choosePages({ data: [page('1', 't1')] }, new Set(['1'])))).toBe(
      'No Facebook pages available to connect',
    )
    expect(failureOf(() => choosePages({ error: 'x' }, new Set()))).toBe(
      'Facebook login was cancelled or failed',
    )
  })
})

describe('parseSignupMessage', () => {
  const finish = signupMessage('FINISH', { phone_number_id: '2', waba_id: '3' })

  it("reads Embedded Signup's session info from a trusted origin", () => {
    expect(parseSignupMessage({ origin: 'https://www.facebook.com', data: finish }, TRUSTED)).toEqual({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'FINISH',
      data: { phone_number_id: '2', waba_id: '3' },
    })
  })

  it('ignores other origins, other messages and malformed ones', () => {
    for (const origin of ['https://evil.example', 'https://www.facebook.com.evil.example', 'null']) {
      expect(parseSignupMessage({ origin, data: finish }, TRUSTED)).toBeNull()
    }
    const from = (data: unknown) => parseSignupMessage({ origin: 'https://web.facebook.com', data }, TRUSTED)
    expect(from('{not json')).toBeNull()
    expect(from(JSON.stringify({ type: 'OTHER', event: 'FINISH', data: {} }))).toBeNull()
    expect(from({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: {} })).toBeNull()
  })
})

describe('signupOutcome', () => {
  const message = (event: string, data: Record<string, string> = {}) =>
    parseSignupMessage({ origin: TRUSTED[0], data: signupMessage(event, data) }, TRUSTED)
  const withCode = (code: string) => ({ status: 'connected', authResponse: { code } })

  it('gives the code and the ids of a finished signup', () => {
    const finished = message('FINISH', { phone_number_id: '22', waba_id: '33' })
    expect(signupOutcome(withCode('c0de'), finished)).toEqual({
      code: 'c0de',
      wabaId: '33',
      phoneNumberId: '22',
    })
  })

  it("says the spec's message for each way it can end otherwise", () => {
    const loggedOut = { status: 'unknown', authResponse: null }
    expect(failureOf(() => signupOutcome(loggedOut, message('CANCEL', { current_step: 'X' })))).toBe(
      'User cancelled WhatsApp signup or did not authorize',
    )
    expect(failureOf(() => signupOutcome(loggedOut, null))).toBe(
      'User cancelled WhatsApp signup or did not authorize',
    )
    const finished = message('FINISH', { phone_number_id: '22', waba_id: '33' })
    expect(failureOf(() => signupOutcome(withCode(''), finished))).toBe(
      'No authorization code received from WhatsApp signup',
    )
    expect(
      failureOf(() => signupOutcome(withCode('c'), message('FINISH_ONLY_WABA', { waba_id: '33' }))),
    ).toBe(CHANNEL_UI_TEXTS.whatsappNoPhoneNumber)
    expect(failureOf(() => signupOutcome(withCode('c'), message('ERROR', { error_message: 'Boom' })))).toBe(
      'WhatsApp signup failed: Boom',
    )
    expect(failureOf(() => signupOutcome(withCode('c'), null))).toBe('WhatsApp signup failed')
  })
})

describe('collectFacebookPages', () => {
  it('lists every page of a person with 250, following /me/accounts paging to its end', async () => {
    const pages = Array.from({ length: 250 }, (_, i) => ({
      id: String(i),
      name: `P${i}`,
      access_token: `t${i}`,
    }))
    const asked: Record<string, string>[] = []
    const sdk: FacebookSdk = {
      init: () => undefined,
      logout: () => undefined,
      getLoginStatus: () => undefined,
      login: (callback) => callback({ status: 'connected', authResponse: { accessToken: 'user-token' } }),
      api: (path, params, callback) => {
        if (path === '/me/permissions') return callback({ data: granted(FACEBOOK_PERMISSIONS) })
        asked.push(params)
        const start = Number(params.after ?? 0)
        const end = start + Number(params.limit)
        const next = end < pages.length ? { next: `https://graph/next?after=${end}` } : {}
        callback({ data: pages.slice(start, end), paging: { cursors: { after: String(end) }, ...next } })
      },
    }
    const { pages: listed } = await collectFacebookPages(sdk, new Set(['7']))
    expect(listed).toHaveLength(249)
    expect(listed.at(-1)).toMatchObject({ id: '249', accessToken: 't249' })
    expect(asked.map((p) => p.after)).toEqual([undefined, '100', '200'])
  })
})
