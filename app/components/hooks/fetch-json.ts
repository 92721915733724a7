/**
 * JSON from one of the app's own resource routes, or undefined when it could not be read (offline, signed out,
 * an error page): the caller keeps what it shows.
 *
 * For live counts rather than a Remix fetcher: a fetcher's first load looks its route up in the route manifest,
 * and a page navigation that started meanwhile aborted that lookup, which Remix then showed as a 404 error page
 * ("No route matches URL") in place of the page the person was opening.
 */
export async function fetchJson<T>(path: string, init?: RequestInit): Promise<T | undefined> {
  try {
    const response = await fetch(path, { credentials: 'same-origin', ...init })
    const type = response.headers.get('content-type') ?? ''
    return response.ok && type.includes('application/json') ? ((await response.json()) as T) : undefined
  } catch {
    return undefined
  }
}
