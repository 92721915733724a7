import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import { createAccount, type Account } from './helpers'

export type Envelope<T = unknown> = {
  success: boolean
  data: T
  message: string | null
  code?: string
  errors?: Record<string, string[]>
}

/** A product API client for one user, over real HTTP, with an ID token from the Auth emulator. */
export async function apiUser(
  request: APIRequestContext,
  name = 'API User',
  options?: Parameters<typeof createAccount>[1],
) {
  return apiClientFor(request, await createAccount(name, options))
}

/** The API client of an account made before (one also signed in in a browser, say). */
export function apiClientFor(request: APIRequestContext, account: Account) {
  const headers = (extra?: Record<string, string>) => ({
    Authorization: `Bearer ${account.idToken}`,
    ...extra,
  })
  const call = async <T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Envelope<T>; response: APIResponse }> => {
    // Paths are below /api/v1, except the spec's few calls elsewhere under /api (/api/facebook/...).
    const response = await request.fetch(path.startsWith('/api/') ? path : `/api/v1${path}`, {
      method,
      headers: headers(options.headers),
      data: options.body,
    })
    const body: Envelope<T> = await response.json()
    return { status: response.status(), body, response }
  }
  return { ...account, call }
}

export type ApiUser = Awaited<ReturnType<typeof apiUser>>

export async function createOrg(user: ApiUser, name: string) {
  const { status, body } = await user.call<{ id: string; name: string; plan: string; role: string }>(
    'POST',
    '/organizations',
    {
      body: { name },
    },
  )
  expect(status).toBe(201)
  return body.data
}
