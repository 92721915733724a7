import { randomBytes, randomInt } from 'node:crypto'
import { expect, test } from './helpers'
import { apiUser, createOrg } from './api-client'

type Channel = {
  id: string
  platformName: string
  agentId: string | null
  agentEnabled: boolean
  metadata: Record<string, string>
}

const TELEGRAM = process.env.E2E_FAKE_TELEGRAM_URL

/** A bot the fake Telegram knows; its token is well-formed and unique. */
async function registerBot(username: string) {
  const id = randomInt(1_000_000_000, 9_000_000_000)
  const token = `${id}:${randomBytes(27).toString('base64url').slice(0, 35)}`
  const response = await fetch(`${TELEGRAM}/__fake/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, id, username, firstName: `${username} name` }),
  })
  expect(response.ok).toBe(true)
  return token
}

async function setup(request: Parameters<typeof apiUser>[0]) {
  const user = await apiUser(request)
  const org = await createOrg(user, 'Channels Org')
  return { user, org, base: `/organizations/${org.id}/channels` }
}

test('connect a Telegram bot, list, read, rename, assign and remove an agent, delete; the token never comes back', async ({
  request,
}) => {
  const { user, org, base } = await setup(request)
  const token = await registerBot('acme_support_bot')
  const created = await user.call<Channel[]>('POST', base, {
    body: { platformName: 'telegram', botToken: token },
  })
  expect(created.status).toBe(201)
  const [channel] = created.body.data
  expect(channel).toMatchObject({
    platformName: 'telegram',
    channelType: 'telegram_bot',
    status: 'active',
    agentId: null,
  })
  expect(channel.metadata).toMatchObject({ username: 'acme_support_bot' })

  const list = await user.call<Channel[]>('GET', `${base}?platformName=telegram`)
  expect(list.body.data.map((c) => c.id)).toEqual([channel.id])
  expect((await user.call<Channel[]>('GET', `${base}?platformName=facebook`)).body.data).toEqual([])
  const renamed = await user.call<Channel>('PATCH', `${base}/${channel.id}`, {
    body: { name: 'Support line' },
  })
  expect(renamed.body.data.metadata.name).toBe('Support line')

  const agent = await user.call<{ id: string }>('POST', `/organizations/${org.id}/agents`, {
    body: {
      name: 'Helper',
      readableId: 'helper',
      modelType: 'simple',
      creativityLevel: 0.5,
      systemPrompt: 'Be brief and kind.',
    },
  })
  const missing = await user.call('POST', `${base}/${channel.id}/agent`, { body: { agentId: '' } })
  expect(missing.status).toBe(400)
  expect(missing.body.message).toBe('Please select an agent')
  const assigned = await user.call<Channel>('POST', `${base}/${channel.id}/agent?platformName=telegram`, {
    body: { agentId: agent.body.data.id, agentEnabled: false },
  })
  expect(assigned.body).toMatchObject({
    message: 'Agent assigned successfully',
    data: { agentId: agent.body.data.id, agentEnabled: false },
  })
  const removed = await user.call<Channel>('DELETE', `${base}/${channel.id}/agent`)
  expect(removed.body).toMatchObject({ message: 'Agent removed successfully', data: { agentId: null } })

  for (const response of [created, list, renamed, assigned, removed])
    expect(JSON.stringify(response.body)).not.toContain(token)

  const deleted = await user.call('DELETE', `${base}/${channel.id}`)
  expect(deleted.body).toMatchObject({ success: true, message: 'Channel deleted successfully' })
  expect((await user.call('GET', `${base}/${channel.id}`)).status).toBe(404)
})

test('token validation: format, unknown to Telegram, and a bot connected twice', async ({ request }) => {
  const { user, base } = await setup(request)
  const badFormat = await user.call('POST', base, {
    body: { platformName: 'telegram', botToken: '123:short' },
  })
  expect(badFormat.status).toBe(400)
  expect(badFormat.body.message).toBe('Invalid bot token format')
  const empty = await user.call('POST', base, { body: { platformName: 'telegram', botToken: '  ' } })
  expect(empty.body.message).toBe('Bot token is required')
  const unknown = await user.call('POST', base, {
    body: { platformName: 'telegram', botToken: `999:${'x'.repeat(35)}` },
  })
  expect(unknown.status).toBe(400)
  expect(unknown.body.message).toBe('Bot token is invalid or expired')

  const token = await registerBot('twice_bot')
  expect(
    (await user.call('POST', base, { body: { channels: [{ platformName: 'telegram', botToken: token }] } }))
      .status,
  ).toBe(201)
  const again = await user.call('POST', base, { body: { platformName: 'telegram', botToken: token } })
  expect(again.status).toBe(409)
})

test('cross-tenant: another organization gets 404 on every channel endpoint and changes nothing', async ({
  request,
}) => {
  const a = await setup(request)
  const token = await registerBot('private_bot')
  const [channel] = (
    await a.user.call<Channel[]>('POST', a.base, { body: { platformName: 'telegram', botToken: token } })
  ).body.data
  const intruder = await apiUser(request, 'Intruder')
  const own = await createOrg(intruder, 'Intruder Org')
  const ownAgent = await intruder.call<{ id: string }>('POST', `/organizations/${own.id}/agents`, {
    body: {
      name: 'Mine',
      readableId: 'mine',
      modelType: 'simple',
      creativityLevel: 0.5,
      systemPrompt: 'Intruder agent here.',
    },
  })
  const path = `${a.base}/${channel.id}`
  const attempts = await Promise.all([
    intruder.call('GET', a.base),
    intruder.call('GET', path),
    intruder.call('PATCH', path, { body: { name: 'Pwned' } }),
    intruder.call('PATCH', path, { body: { webhookSubscribed: true } }),
    intruder.call('DELETE', path),
    intruder.call('POST', `${path}/agent`, { body: { agentId: ownAgent.body.data.id } }),
    intruder.call('DELETE', `${path}/agent`),
    intruder.call('GET', `/organizations/${own.id}/channels/${channel.id}`),
  ])
  for (const { status, body } of attempts) {
    expect(status).toBe(404)
    expect(JSON.stringify(body)).not.toContain('private_bot')
  }
  expect((await a.user.call<Channel>('GET', path)).body.data).toMatchObject({
    agentId: null,
    webhookSubscribed: false,
    metadata: { username: 'private_bot' },
  })
})

test('PATCH webhookSubscribed switches the webhook at the platform (Telegram: setWebhook with a secret, deleteWebhook)', async ({
  request,
}) => {
  const { user, base } = await setup(request)
  const token = await registerBot('webhook_api_bot')
  const [channel] = (
    await user.call<Channel[]>('POST', base, { body: { platformName: 'telegram', botToken: token } })
  ).body.data
  const on = await user.call<Channel & { webhookUrl: string | null }>('PATCH', `${base}/${channel.id}`, {
    body: { webhookSubscribed: true },
  })
  expect(on.status).toBe(200)
  expect(on.body.data).toMatchObject({
    webhookSubscribed: true,
    webhookUrl: expect.stringMatching(new RegExp(`/webhooks/telegram/${channel.id}$`)),
  })
  const calls = async () =>
    (await (await fetch(`${TELEGRAM}/__fake/calls`)).json()) as {
      method: string
      token: string
      params: Record<string, unknown>
    }[]
  const set = (await calls()).findLast((c) => c.method === 'setWebhook' && c.token === token)
  expect(set?.params).toMatchObject({
    url: expect.stringContaining(`/webhooks/telegram/${channel.id}`),
    secret_token: expect.any(String),
  })
  const off = await user.call<Channel>('PATCH', `${base}/${channel.id}`, {
    body: { webhookSubscribed: false },
  })
  expect(off.body.data).toMatchObject({ webhookSubscribed: false, webhookUrl: null })
  expect((await calls()).some((c) => c.method === 'deleteWebhook' && c.token === token)).toBe(true)
  expect(JSON.stringify([on.body, off.body])).not.toContain(token)
})

test('PATCH with one field changes only that field; a bad field is a 400 in words and changes nothing', async ({
  request,
}) => {
  const { user, base } = await setup(request)
  const created = await user.call<Channel[]>('POST', base, {
    body: { platformName: 'telegram', botToken: await registerBot('partial_patch_bot') },
  })
  expect(created.status).toBe(201)
  const [channel] = created.body.data
  const path = `${base}/${channel.id}`

  const off = await user.call<Channel>('PATCH', path, { body: { agentEnabled: false } })
  expect(off.status).toBe(200)
  expect(off.body.data).toEqual({ ...channel, agentEnabled: false })

  const renamed = await user.call<Channel>('PATCH', path, { body: { name: 'Front desk' } })
  expect(renamed.status).toBe(200)
  expect(renamed.body.data).toEqual({
    ...channel,
    agentEnabled: false,
    metadata: { ...channel.metadata, name: 'Front desk' },
  })

  for (const [body, message] of [
    [{ name: '  ' }, 'Channel name is required'],
    [{ name: 'x'.repeat(101) }, 'Channel name must be at most 100 characters'],
    [{ agentEnabled: 'no' }, 'agentEnabled must be true or false'],
    [{ webhookSubscribed: 1 }, 'webhookSubscribed must be true or false'],
  ] as const) {
    const refused = await user.call('PATCH', path, { body })
    expect(refused.status, message).toBe(400)
    expect(refused.body.message, message).toBe(message)
  }
  expect((await user.call<Channel>('GET', path)).body.data).toEqual(renamed.body.data)

  const document = await (await request.get('/api/v1/openapi.json')).json()
  const patch = document.paths['/api/v1/organizations/{orgId}/channels/{channelId}'].patch
  expect(patch.requestBody.content['application/json'].schema.required ?? []).toEqual([])
})
