import { readdirSync } from 'node:fs'
import { expect, test } from './helpers'
import { apiUser, createOrg } from './api-client'

test.describe('product API conventions', () => {
  test('a missing token is 403 AUTH_TOKEN_MISSING, a bad one 401 AUTH_TOKEN_INVALID', async ({ request }) => {
    const missing = await request.get('/api/v1/organizations')
    expect(missing.status()).toBe(403)
    expect(await missing.json()).toEqual({
      success: false,
      data: null,
      message: 'Authentication token is missing',
      code: 'AUTH_TOKEN_MISSING',
    })
    const bad = await request.get('/api/v1/organizations', {
      headers: { Authorization: 'Bearer not-a-token' },
    })
    expect(bad.status()).toBe(401)
    expect(await bad.json()).toMatchObject({
      success: false,
      message: 'Authentication token is invalid or expired',
      code: 'AUTH_TOKEN_INVALID',
    })
  })

  test('unknown API paths and methods answer in the envelope', async ({ request }) => {
    const user = await apiUser(request)
    const unknown = await user.call('GET', '/nothing/here')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ success: false, code: 'NOT_FOUND' })
    const method = await user.call('PUT', '/organizations')
    expect(method.status).toBe(405)
    expect(method.response.headers()['allow']).toBe('GET, POST')
  })

  test('a malformed body is a VALIDATION_ERROR with field errors, and nothing is created', async ({
    request,
  }) => {
    const user = await apiUser(request)
    const empty = await user.call('POST', '/organizations', { body: { name: '   ' } })
    expect(empty.status).toBe(400)
    expect(empty.body).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      message: 'Organization name is required',
      errors: { name: ['Organization name is required'] },
    })
    const notJson = await user.call('POST', '/organizations', {
      body: Buffer.from('{"name":'),
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
    expect(notJson.body.message).toBe('Request body is not valid JSON')
    const list = await user.call<unknown[]>('GET', '/organizations')
    expect(list.body.data).toEqual([])
  })
})

test.describe('profile', () => {
  test('POST /users/{uid} returns the profile with organizations, only for the caller', async ({
    request,
  }) => {
    const user = await apiUser(request, 'Profile Person')
    const other = await apiUser(request)
    const org = await createOrg(user, 'Acme')
    const { status, body } = await user.call<{ uid: string; displayName: string; organizations: unknown[] }>(
      'POST',
      `/users/${user.uid}`,
    )
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      uid: user.uid,
      displayName: 'Profile Person',
      organizations: [{ id: org.id, name: 'Acme', plan: 'free', role: 'owner' }],
    })
    const foreign = await other.call('POST', `/users/${user.uid}`)
    expect(foreign.status).toBe(404)
    expect(JSON.stringify(foreign.body)).not.toContain('Acme')
  })
})

test.describe('organizations', () => {
  test('create, list, read, rename and delete as the owner', async ({ request }) => {
    const owner = await apiUser(request)
    const created = await createOrg(owner, '  Acme Inc  ')
    expect(created).toMatchObject({ name: 'Acme Inc', plan: 'free', role: 'owner' })

    const list = await owner.call('GET', '/organizations')
    expect(list.body.data).toEqual([created])

    const one = await owner.call('GET', `/organizations/${created.id}`, {
      headers: { 'X-Organization-Id': created.id },
    })
    expect(one.body.data).toMatchObject({ id: created.id, name: 'Acme Inc', role: 'owner' })

    const renamed = await owner.call('PATCH', `/organizations/${created.id}`, { body: { name: 'Acme Ltd' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({
      success: true,
      data: { name: 'Acme Ltd' },
      message: 'Organization updated',
    })

    const mismatch = await owner.call('GET', `/organizations/${created.id}`, {
      headers: { 'X-Organization-Id': '00000000-0000-4000-8000-000000000000' },
    })
    expect(mismatch.status).toBe(400)

    const deleted = await owner.call('DELETE', `/organizations/${created.id}`)
    expect(deleted.body).toMatchObject({ success: true, data: null })
    expect((await owner.call('GET', `/organizations/${created.id}`)).status).toBe(404)
  })

  test('members: an owner adds and removes; a member reads but cannot change; the last owner stays', async ({
    request,
  }) => {
    const owner = await apiUser(request, 'Owner')
    const member = await apiUser(request, 'Member')
    await member.call('GET', '/organizations') // first sight creates the user
    const org = await createOrg(owner, 'Team')

    const unknown = await owner.call('POST', `/organizations/${org.id}/members`, {
      body: { memberId: 'no-such-uid' },
    })
    expect(unknown.status).toBe(404)

    const added = await owner.call<{ uid: string; role: string }[]>(
      'POST',
      `/organizations/${org.id}/members`,
      {
        body: { memberId: member.uid },
      },
    )
    expect(added.status).toBe(200)
    expect(added.body.data.map((m) => [m.uid, m.role])).toEqual([
      [owner.uid, 'owner'],
      [member.uid, 'member'],
    ])

    expect((await member.call('GET', `/organizations/${org.id}`)).body.data).toMatchObject({ role: 'member' })
    const rename = await member.call('PATCH', `/organizations/${org.id}`, { body: { name: 'Mine now' } })
    expect(rename.status).toBe(403)
    expect((await member.call('DELETE', `/organizations/${org.id}`)).status).toBe(403)
    expect(
      (await member.call('POST', `/organizations/${org.id}/members`, { body: { memberId: member.uid } }))
        .status,
    ).toBe(403)

    const lastOwner = await owner.call('DELETE', `/organizations/${org.id}/members/${owner.uid}`)
    expect(lastOwner.status).toBe(409)

    const removed = await owner.call<unknown[]>('DELETE', `/organizations/${org.id}/members/${member.uid}`)
    expect(removed.body.data).toHaveLength(1)
    expect((await member.call('GET', `/organizations/${org.id}`)).status).toBe(404)
  })
})

test('cross-tenant: a user of A gets 404 or 403 on every endpoint of B, never data, and B is unchanged', async ({
  request,
}) => {
  const alice = await apiUser(request, 'Alice')
  const bob = await apiUser(request, 'Bob')
  await createOrg(alice, 'Alice Co')
  const bobOrg = await createOrg(bob, 'Bob Secret Co')

  const attempts = [
    alice.call('GET', `/organizations/${bobOrg.id}`),
    alice.call('PATCH', `/organizations/${bobOrg.id}`, { body: { name: 'Pwned' } }),
    alice.call('DELETE', `/organizations/${bobOrg.id}`),
    alice.call('POST', `/organizations/${bobOrg.id}/members`, { body: { memberId: alice.uid } }),
    alice.call('DELETE', `/organizations/${bobOrg.id}/members/${bob.uid}`),
    alice.call('POST', `/users/${bob.uid}`),
    alice.call('GET', `/organizations/${bobOrg.id}`, { headers: { 'X-Organization-Id': bobOrg.id } }),
  ]
  for (const { status, body } of await Promise.all(attempts)) {
    expect([403, 404]).toContain(status)
    expect(body.success).toBe(false)
    expect(JSON.stringify(body)).not.toContain('Bob Secret Co')
  }
  const after = await bob.call('GET', `/organizations/${bobOrg.id}`)
  expect(after.body.data).toMatchObject({ name: 'Bob Secret Co' })
  const members = await bob.call<unknown[]>('GET', '/organizations')
  expect(members.body.data).toHaveLength(1)
  const aliceList = await alice.call<{ name: string }[]>('GET', '/organizations')
  expect(aliceList.body.data.map((o) => o.name)).toEqual(['Alice Co'])
})

test('the OpenAPI document is valid OpenAPI 3.1 and lists every API route', async ({ request }) => {
  const { Validator } = await import('@seriousme/openapi-schema-validator')
  const response = await request.get('/api/v1/openapi.json')
  expect(response.status()).toBe(200)
  const document = await response.json()
  const validator = new Validator()
  const result = await validator.validate(document)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
  expect(document.openapi).toBe('3.1.0')
  const operations = Object.entries(document.paths).flatMap(([path, ops]) =>
    Object.keys(ops ?? {}).map((m) => `${m.toUpperCase()} ${path}`),
  )
  expect(operations).toEqual(
    expect.arrayContaining(['POST /api/v1/users/{uid}', 'DELETE /api/v1/organizations/{orgId}']),
  )
  // Every API route file is in the document, and nothing else is.
  const routePaths = readdirSync('app/routes')
    .filter(
      (f) => f.startsWith('api.') && !f.includes('openapi') && !f.includes('.test.') && f !== 'api.v1.$.ts',
    )
    .map((f) =>
      f
        .replace(/\.tsx?$/, '')
        .split('.')
        .map((part) => (part.startsWith('$') ? `{${part.slice(1)}}` : part))
        .join('/'),
    )
    .map((p) => `/${p}`)
  expect(Object.keys(document.paths).sort()).toEqual(routePaths.sort())
})

test('sign-in attempts are rate limited per account with 429 and Retry-After', async ({ request }) => {
  const user = await apiUser(request)
  let last
  for (let i = 0; i < 11; i++) {
    last = await request.post('/login', {
      form: { intent: 'sign-in', email: user.email, password: 'Wrong123' },
      maxRedirects: 0,
    })
  }
  expect(last?.status()).toBe(429)
  expect(Number(last?.headers()['retry-after'])).toBeGreaterThan(0)
})
