import { describe, expect, it } from 'vitest'
import { authErrorMessage, GENERIC_AUTH_ERROR } from '~/lib/auth/errors'
import { safeRedirectPath } from './safe-redirect'
import { readSidebarOpen, sidebarCookie } from './sidebar'

describe('authErrorMessage', () => {
  it('maps REST codes, codes with details and SDK codes to readable texts', () => {
    expect(authErrorMessage('INVALID_LOGIN_CREDENTIALS')).toBe('Incorrect email or password.')
    expect(authErrorMessage('WEAK_PASSWORD : Password should be at least 6 characters')).toBe(
      'Password must be at least 6 characters',
    )
    expect(authErrorMessage('auth/user-disabled')).toContain('disabled')
    expect(authErrorMessage('SOMETHING_NEW')).toBe(GENERIC_AUTH_ERROR)
    expect(authErrorMessage(undefined)).toBe(GENERIC_AUTH_ERROR)
  })
})

describe('safeRedirectPath', () => {
  it('keeps paths on our origin with their query and hash', () => {
    expect(safeRedirectPath('/channels?x=1')).toBe('/channels?x=1')
    expect(safeRedirectPath('/agents#new')).toBe('/agents#new')
    expect(safeRedirectPath('/a/../channels')).toBe('/channels')
    expect(safeRedirectPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example')
  })

  // Known open-redirect bypasses: each would leave our origin in some browser, or is not a path at all.
  it.each([
    ['protocol-relative', '//evil.example'],
    ['backslash', '/\\evil.example'],
    ['backslash after the slash', '/\\/evil.example'],
    ['tab (browsers strip it)', '/\t/evil.example'],
    ['newline', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['NUL', '/\u0000/evil.example'],
    ['DEL', '/\u007f/evil.example'],
    ['dot segment before two slashes', '/.//evil.example'],
    ['dot-dot segment before two slashes', '/x/..//evil.example'],
    ['absolute https', 'https://evil.example'],
    ['absolute http with our path', 'http://evil.example/channels'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['relative', 'evil.example'],
    ['empty', ''],
    ['three slashes', '///evil.example'],
  ])('refuses %s', (_name, value) => {
    expect(safeRedirectPath(value)).toBe('/')
  })

  it('refuses the decoded forms of encoded bypasses (a query string arrives decoded)', () => {
    for (const encoded of [
      '%2F%09%2Fevil.example',
      '%2F%2Fevil.example',
      '%2F%5Cevil.example',
      '%2F%0A%2Fevil',
    ]) {
      expect(safeRedirectPath(decodeURIComponent(encoded))).toBe('/')
      expect(safeRedirectPath(new URLSearchParams(`redirectTo=${encoded}`).get('redirectTo'))).toBe('/')
    }
  })

  it('uses the fallback for anything that is not a string', () => {
    expect(safeRedirectPath(null)).toBe('/')
    expect(safeRedirectPath(undefined, '/agents')).toBe('/agents')
  })
})

describe('sidebar cookie', () => {
  it('is open unless the cookie says false, and lasts 7 days', () => {
    expect(readSidebarOpen(null)).toBe(true)
    expect(readSidebarOpen('a=1; sidebar_state=false')).toBe(false)
    expect(readSidebarOpen('sidebar_state=true')).toBe(true)
    expect(readSidebarOpen('xsidebar_state=false')).toBe(true)
    expect(sidebarCookie(false)).toContain('Max-Age=604800')
  })
})
