import { describe, expect, it } from 'vitest'
import { authErrorMessage, GENERIC_AUTH_ERROR } from './auth-errors'
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
  it('keeps same-site paths and refuses everything else', () => {
    expect(safeRedirectPath('/channels?x=1')).toBe('/channels?x=1')
    expect(safeRedirectPath('//evil.example')).toBe('/')
    expect(safeRedirectPath('/\\evil.example')).toBe('/')
    expect(safeRedirectPath('https://evil.example')).toBe('/')
    expect(safeRedirectPath(null)).toBe('/')
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
