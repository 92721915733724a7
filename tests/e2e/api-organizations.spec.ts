import { randomUUID } from 'node:crypto'
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

  test('create without a plan is on the free plan; PATCH {name} changes only the name; an empty body or a missing name is a 400 in words and changes nothing', async ({
    request,
  }) => {
    const owner = await apiUser(request)
    const created = await owner.call<{ id: string; plan: string }>('POST', '/organizations', {
      body: { name: 'Defaults Co' },
    })
    expect(created.status).toBe(201)
    expect(created.body.data.plan).toBe('free')
    const path = `/organizations/${created.body.data.id}`
    const before = (await owner.call<Record<string, unknown>>('GET', path)).body.data

    const renamed = await owner.call<Record<string, unknown>>('PATCH', path, { body: { name: 'Renamed Co' } })
    expect(renamed.status).toBe(200)
    expect({ ...renamed.body.data, updatedAt: undefined }).toEqual({
      ...before,
      name: 'Renamed Co',
      updatedAt: undefined,
    })

    const nothing = await owner.call('PATCH', path, { body: {} })
    expect(nothing.status).toBe(400)
    expect(nothing.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: "Give a name, a time zone, an AI resolution period or a files' retention period to change",
    })
    // The AI resolution period (issue 33): hours from 0 (never) to 720.
    const period = await owner.call<Record<string, unknown>>('PATCH', path, {
      body: { autoResolveHours: 48 },
    })
    expect([period.status, period.body.data.autoResolveHours]).toEqual([200, 48])
    for (const autoResolveHours of [-1, 721, 1.5, '24']) {
      const refused = await owner.call('PATCH', path, { body: { autoResolveHours } })
      expect([refused.status, refused.body.message]).toEqual([
        400,
        'Hours must be a whole number from 0 to 720',
      ])
    }
    // How long customers' files are kept (issue 37): days from 1 to 3650, 90 by default.
    expect(period.body.data.mediaRetentionDays).toBe(90)
    const kept = await owner.call<Record<string, unknown>>('PATCH', path, {
      body: { mediaRetentionDays: 30 },
    })
    expect([kept.status, kept.body.data.mediaRetentionDays]).toEqual([200, 30])
    for (const mediaRetentionDays of [0, 3651, 7.5, '30']) {
      const refused = await owner.call('PATCH', path, { body: { mediaRetentionDays } })
      expect([refused.status, refused.body.message]).toEqual([
        400,
        'Days must be a whole number from 1 to 3650',
      ])
    }
    for (const body of [{ name: null }, { name: '  ' }]) {
      const refused = await owner.call('PATCH', path, { body })
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Organization name is required',
        errors: { name: ['Organization name is required'] },
      })
    }
    const plan = await owner.call('POST', '/organizations', { body: { name: 'Pro Co', plan: 'pro' } })
    expect(plan.status).toBe(400)
    expect(plan.body.message).toBe('A new organization is on the free plan')
    expect((await owner.call<Record<string, unknown>>('GET', path)).body.data.name).toBe('Renamed Co')
    expect((await owner.call<unknown[]>('GET', '/organizations')).body.data).toHaveLength(1)
  })

  test('members: POST .../members {memberId} invites; the user joins only by accepting; the last owner stays', async ({
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

    // The spec's add-member call: an invitation, which does not show the person's email.
    const invited = await owner.call<Invitation>('POST', `/organizations/${org.id}/members`, {
      body: { memberId: member.uid },
    })
    expect(invited.status).toBe(201)
    expect(invited.body).toMatchObject({
      success: true,
      message: 'Invitation sent. They become a member when they accept it.',
      data: {
        organizationId: org.id,
        email: null,
        invitee: 'Invited user',
        role: 'member',
        status: 'pending',
      },
    })
    expect(JSON.stringify(invited.body).toLowerCase()).not.toContain(member.email.toLowerCase())
    const again = await owner.call<Invitation>('POST', `/organizations/${org.id}/members`, {
      body: { memberId: member.uid },
    })
    expect(again.body).toMatchObject({
      message: 'An invitation to this person is already pending',
      data: { id: invited.body.data.id },
    })

    // Not a member before accepting.
    expect((await member.call('GET', `/organizations/${org.id}`)).status).toBe(404)
    const pendingList = await owner.call<Invitation[]>('GET', `/organizations/${org.id}/invitations`)
    expect(pendingList.body.data.map((i) => i.invitee)).toEqual(['Invited user'])
    expect(JSON.stringify(pendingList.body).toLowerCase()).not.toContain(member.email.toLowerCase())

    const mine = await member.call<{ id: string; organizationName: string; invitedBy: string }[]>(
      'GET',
      '/invitations',
    )
    expect(mine.body.data).toMatchObject([
      { id: invited.body.data.id, organizationName: 'Team', invitedBy: 'Owner' },
    ])
    const accepted = await member.call('POST', `/invitations/${invited.body.data.id}/accept`)
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({
      success: true,
      data: { id: org.id, name: 'Team', plan: 'free', role: 'member' },
      message: 'You joined Team',
    })

    expect((await member.call('GET', `/organizations/${org.id}`)).body.data).toMatchObject({ role: 'member' })
    const rename = await member.call('PATCH', `/organizations/${org.id}`, { body: { name: 'Mine now' } })
    expect(rename.status).toBe(403)
    expect((await member.call('DELETE', `/organizations/${org.id}`)).status).toBe(403)
    expect(
      (await member.call('POST', `/organizations/${org.id}/members`, { body: { memberId: member.uid } }))
        .status,
    ).toBe(403)
    const alreadyMember = await owner.call('POST', `/organizations/${org.id}/members`, {
      body: { memberId: member.uid },
    })
    expect(alreadyMember.status).toBe(409)
    expect(alreadyMember.body.message).toBe('This person is already a member of the organization')

    const lastOwner = await owner.call('DELETE', `/organizations/${org.id}/members/${owner.uid}`)
    expect(lastOwner.status).toBe(409)

    const removed = await owner.call<{ uid: string; email: string }[]>(
      'DELETE',
      `/organizations/${org.id}/members/${member.uid}`,
    )
    expect(removed.body.data.map((m) => m.uid)).toEqual([owner.uid])
    expect((await member.call('GET', `/organizations/${org.id}`)).status).toBe(404)
  })
})

type Invitation = {
  id: string
  organizationId: string
  email: string | null
  invitee: string
  status: string
}

test.describe('invitations', () => {
  test('an owner invites by email; the invitee accepts and becomes a member', async ({ request }) => {
    const owner = await apiUser(request, 'Inviting Owner')
    const invitee = await apiUser(request, 'Invitee')
    const org = await createOrg(owner, 'Email Co')

    const invalid = await owner.call('POST', `/organizations/${org.id}/invitations`, {
      body: { email: 'not an email' },
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: { email: ['Please enter a valid email address.'] },
    })

    const created = await owner.call<Invitation>('POST', `/organizations/${org.id}/invitations`, {
      body: { email: `  ${invitee.email.toUpperCase()}  ` },
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      email: invitee.email.toLowerCase(),
      invitee: invitee.email.toLowerCase(),
      status: 'pending',
    })
    const listed = await owner.call<Invitation[]>('GET', `/organizations/${org.id}/invitations`)
    expect(listed.body.data.map((i) => i.id)).toEqual([created.body.data.id])

    const mine = await invitee.call<{ id: string; organizationName: string }[]>('GET', '/invitations')
    expect(mine.body.data).toMatchObject([{ id: created.body.data.id, organizationName: 'Email Co' }])
    expect((await invitee.call('POST', `/invitations/${created.body.data.id}/accept`)).status).toBe(200)
    const orgs = await invitee.call<{ id: string; role: string }[]>('GET', '/organizations')
    expect(orgs.body.data).toEqual([{ id: org.id, name: 'Email Co', plan: 'free', role: 'member' }])
    expect((await invitee.call<unknown[]>('GET', '/invitations')).body.data).toEqual([])
    expect((await owner.call<unknown[]>('GET', `/organizations/${org.id}/invitations`)).body.data).toEqual([])

    const twice = await invitee.call('POST', `/invitations/${created.body.data.id}/accept`)
    expect(twice.status).toBe(409)
    // A member cannot see the invitations.
    expect((await invitee.call('GET', `/organizations/${org.id}/invitations`)).status).toBe(403)
  })

  test('the invitee declines; an owner revokes; ids are validated', async ({ request }) => {
    const owner = await apiUser(request, 'Owner')
    const decliner = await apiUser(request, 'Decliner')
    const org = await createOrg(owner, 'Decline Co')

    const invitation = await owner.call<Invitation>('POST', `/organizations/${org.id}/invitations`, {
      body: { email: decliner.email },
    })
    const declined = await decliner.call('POST', `/invitations/${invitation.body.data.id}/decline`)
    expect(declined.body).toMatchObject({ success: true, data: null, message: 'Invitation declined' })
    expect((await decliner.call('GET', `/organizations/${org.id}`)).status).toBe(404)
    expect((await decliner.call<unknown[]>('GET', '/organizations')).body.data).toEqual([])
    expect((await owner.call<unknown[]>('GET', `/organizations/${org.id}/invitations`)).body.data).toEqual([])

    const second = await owner.call<Invitation>('POST', `/organizations/${org.id}/invitations`, {
      body: { email: decliner.email },
    })
    expect(second.status).toBe(201)
    const revoked = await owner.call('DELETE', `/organizations/${org.id}/invitations/${second.body.data.id}`)
    expect(revoked.body).toMatchObject({ success: true, data: null, message: 'Invitation revoked' })
    expect((await decliner.call<unknown[]>('GET', '/invitations')).body.data).toEqual([])
    const late = await decliner.call('POST', `/invitations/${second.body.data.id}/accept`)
    expect(late.status).toBe(409)
    expect(late.body.message).toBe('This invitation was withdrawn by the organization')

    const malformed = await decliner.call('POST', '/invitations/not-a-uuid/accept')
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: { 'params.invitationId': ['Invalid invitation id'] },
    })
    expect((await owner.call('DELETE', `/organizations/${org.id}/invitations/nope`)).status).toBe(400)
    expect((await decliner.call('POST', `/invitations/${randomUUID()}/decline`)).status).toBe(404)
  })

  test('a member leaves; the last owner cannot', async ({ request }) => {
    const owner = await apiUser(request, 'Owner')
    const member = await apiUser(request, 'Leaver')
    const org = await createOrg(owner, 'Leave Co')
    const invitation = await owner.call<Invitation>('POST', `/organizations/${org.id}/invitations`, {
      body: { email: member.email },
    })
    await member.call('POST', `/invitations/${invitation.body.data.id}/accept`)

    const lastOwner = await owner.call('POST', `/organizations/${org.id}/leave`)
    expect(lastOwner.status).toBe(409)
    expect(lastOwner.body).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message: 'An organization needs at least one owner',
    })

    const left = await member.call('POST', `/organizations/${org.id}/leave`)
    expect(left.body).toMatchObject({ success: true, data: null, message: 'You left the organization' })
    expect((await member.call<unknown[]>('GET', '/organizations')).body.data).toEqual([])
    expect((await member.call('GET', `/organizations/${org.id}`)).status).toBe(404)
    expect((await member.call('POST', `/organizations/${org.id}/leave`)).status).toBe(404)
    expect((await owner.call('GET', `/organizations/${org.id}`)).body.data).toMatchObject({ role: 'owner' })
  })
})

test('cross-tenant: a user of A gets 404 or 403 on every endpoint of B, never data, and B is unchanged', async ({
  request,
}) => {
  const alice = await apiUser(request, 'Alice')
  const bob = await apiUser(request, 'Bob')
  const carol = await apiUser(request, 'Carol')
  await createOrg(alice, 'Alice Co')
  const bobOrg = await createOrg(bob, 'Bob Secret Co')
  const bobInvitation = await bob.call<Invitation>('POST', `/organizations/${bobOrg.id}/invitations`, {
    body: { email: carol.email },
  })
  expect(bobInvitation.status).toBe(201)
  const invitationId = bobInvitation.body.data.id

  const attempts = [
    alice.call('GET', `/organizations/${bobOrg.id}`),
    alice.call('PATCH', `/organizations/${bobOrg.id}`, { body: { name: 'Pwned' } }),
    alice.call('DELETE', `/organizations/${bobOrg.id}`),
    alice.call('POST', `/organizations/${bobOrg.id}/members`, { body: { memberId: alice.uid } }),
    alice.call('DELETE', `/organizations/${bobOrg.id}/members/${bob.uid}`),
    alice.call('GET', `/organizations/${bobOrg.id}/invitations`),
    alice.call('POST', `/organizations/${bobOrg.id}/invitations`, { body: { email: alice.email } }),
    alice.call('DELETE', `/organizations/${bobOrg.id}/invitations/${invitationId}`),
    alice.call('POST', `/invitations/${invitationId}/accept`),
    alice.call('POST', `/invitations/${invitationId}/decline`),
    alice.call('POST', `/organizations/${bobOrg.id}/leave`),
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
  const stillPending = await bob.call<Invitation[]>('GET', `/organizations/${bobOrg.id}/invitations`)
  expect(stillPending.body.data.map((i) => [i.id, i.status])).toEqual([[invitationId, 'pending']])
  expect((await alice.call<unknown[]>('GET', '/invitations')).body.data).toEqual([])
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

test('the OpenAPI document shows the organization defaults and the required fields', async ({ request }) => {
  const document = await (await request.get('/api/v1/openapi.json')).json()
  const body = (path: string, method: string) =>
    document.paths[`/api/v1${path}`][method].requestBody.content['application/json'].schema
  const create = body('/organizations', 'post')
  expect(create.required).toEqual(['name'])
  expect(create.properties.plan).toMatchObject({ default: 'free' })
  // PATCH changes the fields it is given (a name, a time zone, an AI resolution period): none is required
  // alone, one of them is.
  const update = body('/organizations/{orgId}', 'patch')
  expect(update.required ?? []).toEqual([])
  expect(Object.keys(update.properties).sort()).toEqual([
    'autoResolveHours',
    'mediaRetentionDays',
    'name',
    'timeZone',
  ])
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
