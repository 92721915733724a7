import { SIDEBAR_COOKIE_MAX_AGE_SECONDS, SIDEBAR_COOKIE_NAME } from './constants'

const PATTERN = new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE_NAME}=(true|false)(?:;|$)`)

/** The sidebar's open state from a Cookie header; open unless the person closed it. */
export function readSidebarOpen(cookieHeader: string | null): boolean {
  return cookieHeader?.match(PATTERN)?.[1] !== 'false'
}

export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE_NAME}=${open}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`
}
