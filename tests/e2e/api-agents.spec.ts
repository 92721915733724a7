import { AGENT_BEHAVIOUR_DEFAULTS, DEFAULT_OFFICE_HOURS } from '../../app/lib/agents/behaviour'
import { expect, test } from './helpers'
import { apiUser, createOrg, type ApiUser } from './api-client'

type Agent = {
  id: string
  readableId: string
  name: string
  status: string
  modelType: string
  creativityLevel: number
  maxTokens: number | null
  topP: number | null
  topK: number | null
}

let counter = 0
const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Support Bot',
  readableId: `bot-${Date.now().toString(36)}-${++counter}`,
  modelType: 'medium',
  creativityLevel: 0.7,
  systemPrompt: 'You are a helpful support agent.',
  ...overrides,
})

/** The spec's agent defaults (section 9), written out: a test that spread AGENT_DEFAULTS would follow a change to it. */
const SPEC_AGENT_DEFAULTS = {
  modelType: 'medium',
  creativityLevel: 0.7,
  maxTokens: 1000,
  topP: 0.9,
  topK: 40,
  status: 'active',
}

async function setup(request: Parameters<typeof apiUser>[0]) {
  const user = await apiUser(request)
  const org = await createOrg(user, 'Agents Org')
  const base = `/organizations/${org.id}/agents`
  const create = (body: Record<string, unknown>) => user.call<Agent>('POST', base, { body })
  return { user, org, base, create }
}

test('create applies the defaults; get, list with status filter and pages, update, delete archives', async ({
  request,
}) => {
  const { user, base, create } = await setup(request)
  const created = await create({
    name: 'Default Agent',
    readableId: 'default-agent',
    systemPrompt: 'Answer politely, always.',
    modelType: 'medium',
    creativityLevel: 0.7,
  })
  expect(created.status).toBe(201)
  expect(created.body).toMatchObject({
    success: true,
    message: 'Agent created successfully',
    data: {
      readableId: 'default-agent',
      status: 'active',
      maxTokens: 1000,
      topP: 0.9,
      topK: 40,
      createdBy: 'API User',
    },
  })
  const id = created.body.data.id
  for (let i = 0; i < 2; i++) expect((await create(valid())).status).toBe(201)

  expect((await user.call<Agent>('GET', `${base}/${id}`)).body.data.name).toBe('Default Agent')

  const patched = await user.call<Agent>('PATCH', `${base}/${id}`, {
    body: { ...valid({ name: 'Renamed Agent', status: 'inactive' }), readableId: undefined },
  })
  expect(patched.status).toBe(200)
  expect(patched.body.data).toMatchObject({
    name: 'Renamed Agent',
    status: 'inactive',
    readableId: 'default-agent',
  })

  const readableId = await user.call('PATCH', `${base}/${id}`, {
    body: { ...valid(), readableId: 'changed' },
  })
  expect(readableId.status).toBe(400)
  expect(readableId.body.errors).toEqual({ readableId: ['The readable ID cannot be changed after creation'] })

  const inactive = await user.call<Agent[]>('GET', `${base}?status=inactive`)
  expect(inactive.body.data.map((a) => a.id)).toEqual([id])
  const page = await user.call<Agent[]>('GET', `${base}?page=2&pageSize=2`)
  expect(page.body.data).toHaveLength(1)
  expect(page.body).toMatchObject({ pagination: { page: 2, pageSize: 2, total: 3 } })
  expect((await user.call('GET', `${base}?status=deleted`)).status).toBe(400)

  const deleted = await user.call<Agent>('DELETE', `${base}/${id}`)
  expect(deleted.body).toMatchObject({
    success: true,
    message: 'Agent deleted successfully',
    data: { status: 'archived' },
  })
  const archived = await user.call<Agent[]>('GET', `${base}?status=archived`)
  expect(archived.body.data.map((a) => a.id)).toEqual([id])
})

test('a readable id is unique within the organization', async ({ request }) => {
  const { create } = await setup(request)
  expect((await create(valid({ readableId: 'same-id' }))).status).toBe(201)
  const again = await create(valid({ readableId: 'same-id' }))
  expect(again.status).toBe(409)
  expect(again.body.code).toBe('CONFLICT')
})

const rows: [string, Record<string, unknown>, string | null][] = [
  ['name 2 chars', { name: 'ab' }, 'Name must be at least 3 characters'],
  ['name 3 chars', { name: 'abc' }, null],
  ['name 100 chars', { name: 'a'.repeat(100) }, null],
  ['name 101 chars', { name: 'a'.repeat(101) }, 'Name must be less than 100 characters'],
  ['id 2 chars', { readableId: 'ab' }, 'ID must be at least 3 characters'],
  ['id 51 chars', { readableId: 'a'.repeat(51) }, 'ID must be less than 50 characters'],
  ['id uppercase', { readableId: 'Bad-ID' }, 'ID must contain only lowercase letters, numbers, and hyphens'],
  ['id underscore', { readableId: 'bad_id' }, 'ID must contain only lowercase letters, numbers, and hyphens'],
  ['creativity -0.1', { creativityLevel: -0.1 }, 'Creativity must be at least 0'],
  ['creativity 1.1', { creativityLevel: 1.1 }, 'Creativity must be at most 1'],
  ['creativity 0 and 1', { creativityLevel: 0 }, null],
  ['prompt 9 chars', { systemPrompt: 'a'.repeat(9) }, 'System prompt must be at least 10 characters'],
  [
    'prompt 5001 chars',
    { systemPrompt: 'a'.repeat(5001) },
    'System prompt must be less than 5000 characters',
  ],
  ['description 501 chars', { description: 'a'.repeat(501) }, 'Description must be less than 500 characters'],
  ['max tokens 99', { maxTokens: 99 }, 'Max tokens must be at least 100'],
  ['max tokens 100', { maxTokens: 100 }, null],
  ['max tokens 8192', { maxTokens: 8192 }, null],
  ['max tokens 8193', { maxTokens: 8193 }, 'Max tokens must be at most 8192'],
  ['top p 1.1', { topP: 1.1 }, 'Top P must be at most 1'],
  ['top k 0', { topK: 0 }, 'Top K must be at least 1'],
  ['top k 101', { topK: 101 }, 'Top K must be at most 100'],
  ['model type', { modelType: 'huge' }, null],
]

test('every row of the validation table, boundaries included', async ({ request }) => {
  const { create } = await setup(request)
  for (const [label, overrides, message] of rows) {
    const { status, body } = await create(valid(overrides))
    if (label === 'model type') {
      expect(status, label).toBe(400)
      continue
    }
    if (message === null) {
      expect(status, label).toBe(201)
    } else {
      expect(status, label).toBe(400)
      expect(Object.values(body.errors ?? {}).flat(), label).toContain(message)
    }
  }
})

test('cross-tenant: another organization gets 404 on every agent endpoint and changes nothing', async ({
  request,
}) => {
  const a = await setup(request)
  const agent = (await a.create(valid({ name: 'Secret Agent' }))).body.data
  const intruder: ApiUser = await apiUser(request, 'Intruder')
  await createOrg(intruder, 'Intruder Org')
  const path = `${a.base}/${agent.id}`
  const attempts = await Promise.all([
    intruder.call('GET', a.base),
    intruder.call('POST', a.base, { body: valid() }),
    intruder.call('GET', path),
    intruder.call('PATCH', path, { body: { ...valid({ name: 'Pwned' }), readableId: undefined } }),
    intruder.call('DELETE', path),
    intruder.call('POST', `${path}/run`, { body: { input: 'hello' } }),
  ])
  for (const { status, body } of attempts) {
    expect(status).toBe(404)
    expect(JSON.stringify(body)).not.toContain('Secret Agent')
  }
  expect((await a.user.call<Agent>('GET', path)).body.data).toMatchObject({
    name: 'Secret Agent',
    status: 'active',
  })
})

test.describe('runs against the fake model', () => {
  test('the run answers with output, execution id, model and tokens; an empty input is refused', async ({
    request,
  }) => {
    const { user, base, create } = await setup(request)
    const agent = (await create(valid())).body.data
    const empty = await user.call('POST', `${base}/${agent.id}/run`, { body: { input: '  ' } })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe('Please enter a message to test')
    const run = await user.call<{
      output: string
      executionId: string
      modelUsed: string
      tokensUsed: { total: number }
    }>('POST', `${base}/${agent.id}/run`, {
      body: {
        input: 'Hello there',
        context: {
          userId: 'test-user',
          channelId: 'test-channel',
          platformName: 'test',
          metadata: { testMode: true },
        },
      },
    })
    expect(run.status).toBe(200)
    expect(run.body.data).toMatchObject({
      output: 'Echo: Hello there',
      executionId: expect.stringMatching(/^exec_/),
    })
    expect(run.body.data.tokensUsed.total).toBeGreaterThan(0)
  })

  test('a provider 429 is a 502 with a clear reason', async ({ request }) => {
    const { user, base, create } = await setup(request)
    const agent = (await create(valid())).body.data
    await fetch(`${process.env.E2E_FAKE_MODEL_URL}/__fake/next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 429, match: 'Hello 429' }),
    })
    const run = await user.call('POST', `${base}/${agent.id}/run`, { body: { input: 'Hello 429' } })
    expect(run.status).toBe(502)
    expect(run.body.message).toMatch(/rate/i)
  })
})

test('a create body with only the required fields gets the spec defaults (section 9)', async ({
  request,
}) => {
  const { create } = await setup(request)
  const created = await create({
    name: 'Minimal Agent',
    readableId: `minimal-${++counter}`,
    systemPrompt: 'Answer politely, always.',
  })
  expect(created.status).toBe(201)
  expect(created.body.data).toMatchObject({
    name: 'Minimal Agent',
    description: null,
    ...SPEC_AGENT_DEFAULTS,
  })
})

test('PATCH with one field changes only that field; null clears an optional one', async ({ request }) => {
  const { user, base, create } = await setup(request)
  const agent = (await create(valid({ description: 'Front desk', topK: 12 }))).body.data
  const path = `${base}/${agent.id}`
  const expectOnly = (data: Agent & { updatedAt?: string }, changed: Partial<Agent>) =>
    expect({ ...data, updatedAt: undefined }).toEqual({ ...agent, updatedAt: undefined, ...changed })

  const inactive = await user.call<Agent>('PATCH', path, { body: { status: 'inactive' } })
  expect(inactive.status).toBe(200)
  expect(inactive.body.message).toBe('Agent updated successfully')
  expectOnly(inactive.body.data, { status: 'inactive' })

  const renamed = await user.call<Agent>('PATCH', path, { body: { name: 'Renamed' } })
  expect(renamed.status).toBe(200)
  expectOnly(renamed.body.data, { status: 'inactive', name: 'Renamed' })

  const cleared = await user.call<Agent>('PATCH', path, { body: { topK: null } })
  expect(cleared.status).toBe(200)
  expectOnly(cleared.body.data, { status: 'inactive', name: 'Renamed', topK: null })
  expectOnly((await user.call<Agent>('GET', path)).body.data, {
    status: 'inactive',
    name: 'Renamed',
    topK: null,
  })
})

test('a missing or cleared required field is a 400 that says so in words, and nothing changes', async ({
  request,
}) => {
  const { user, base, create } = await setup(request)
  const empty = await create({})
  expect(empty.status).toBe(400)
  expect(empty.body).toMatchObject({
    success: false,
    code: 'VALIDATION_ERROR',
    message: 'Name is required',
    errors: {
      name: ['Name is required'],
      readableId: ['ID is required'],
      systemPrompt: ['System prompt is required'],
    },
  })
  const badModel = await create(valid({ modelType: 'huge' }))
  expect(badModel.status).toBe(400)
  expect(badModel.body.errors).toEqual({ modelType: ['Model type must be one of: simple, medium, pro'] })
  expect(JSON.stringify(badModel.body)).not.toContain('Invalid option')
  expect((await user.call<Agent[]>('GET', base)).body.data).toEqual([])

  const agent = (await create(valid())).body.data
  const path = `${base}/${agent.id}`
  for (const [body, message] of [
    [{ modelType: null }, 'Model type is required'],
    [{ name: null, status: 'inactive' }, 'Name is required'],
    [{ systemPrompt: null }, 'System prompt is required'],
    [{ status: 'deleted' }, 'Status must be one of: active, inactive, archived'],
  ] as const) {
    const refused = await user.call('PATCH', path, { body })
    expect(refused.status, message).toBe(400)
    expect(refused.body.message, message).toBe(message)
  }
  expect((await user.call<Agent>('GET', path)).body.data).toEqual(agent)
})

test('the OpenAPI document shows the agent defaults and which fields are optional', async ({ request }) => {
  const document = await (await request.get('/api/v1/openapi.json')).json()
  const body = (method: 'post' | 'patch', path: string) =>
    document.paths[`/api/v1/organizations/{orgId}/agents${path}`][method].requestBody.content[
      'application/json'
    ].schema
  const create = body('post', '')
  expect([...create.required].sort()).toEqual(['name', 'readableId', 'systemPrompt'])
  expect(create.properties.modelType.enum).toEqual(['simple', 'medium', 'pro'])
  for (const [field, value] of Object.entries(SPEC_AGENT_DEFAULTS)) {
    expect(create.properties[field].default, field).toBe(value)
  }
  expect(body('patch', '/{agentId}').required ?? []).toEqual([])
  const agent =
    document.paths['/api/v1/organizations/{orgId}/agents/{agentId}'].get.responses['200'].content[
      'application/json'
    ].schema.properties.data
  expect(agent.properties.createdAt).toEqual({ type: 'string', format: 'date-time' })
})

/** An agent as the API answers it, behaviour included. */
type AgentWithBehaviour = Agent & { updatedAt: string; [field: string]: unknown }

test("behaviour (issue #17): a new agent's defaults, a PATCH of each field, and refusals that say why", async ({
  request,
}) => {
  const { user, base, create } = await setup(request)
  const created = await user.call<AgentWithBehaviour>('POST', base, { body: valid() })
  expect(created.status).toBe(201)
  expect(created.body.data).toMatchObject(AGENT_BEHAVIOUR_DEFAULTS)
  const path = `${base}/${created.body.data.id}`

  const berlin = {
    ...DEFAULT_OFFICE_HOURS,
    timeZone: 'Europe/Berlin',
    days: { ...DEFAULT_OFFICE_HOURS.days, saturday: { open: true, opens: '10:00', closes: '14:00' } },
    outsideHours: 'answer',
  }
  const changes: Record<string, unknown>[] = [
    { burstWaitSeconds: 0 },
    { burstWaitSeconds: 30 },
    { handoffEnabled: false },
    { handoffMessage: 'A colleague will take over.' },
    { fallbackMessage: '' },
    { unreadableMessage: 'Please write it down for me.' },
    { officeHours: berlin },
  ]
  let expected = created.body.data
  for (const change of changes) {
    const patched = await user.call<AgentWithBehaviour>('PATCH', path, { body: change })
    expect(patched.status, JSON.stringify(change)).toBe(200)
    expected = { ...expected, ...change, updatedAt: patched.body.data.updatedAt }
    expect(patched.body.data, JSON.stringify(change)).toEqual(expected)
  }
  // Without a message, office hours keep the default out-of-hours text; null switches them off.
  const { message: _message, ...withoutMessage } = berlin
  const defaulted = await user.call<AgentWithBehaviour>('PATCH', path, {
    body: { officeHours: withoutMessage },
  })
  expect(defaulted.body.data).toMatchObject({ officeHours: { message: DEFAULT_OFFICE_HOURS.message } })
  const off = await user.call<AgentWithBehaviour>('PATCH', path, { body: { officeHours: null } })
  expect(off.body.data).toMatchObject({ officeHours: null, burstWaitSeconds: 30, handoffEnabled: false })
  const stored = (await user.call<AgentWithBehaviour>('GET', path)).body.data

  const refusals: [Record<string, unknown>, string, string][] = [
    [{ burstWaitSeconds: 31 }, 'burstWaitSeconds', 'The wait must be at most 30 seconds'],
    [{ burstWaitSeconds: -1 }, 'burstWaitSeconds', 'The wait must be at least 0 seconds'],
    [{ burstWaitSeconds: 2.5 }, 'burstWaitSeconds', 'The wait must be a whole number of seconds'],
    [{ handoffEnabled: 'yes' }, 'handoffEnabled', 'Handoff must be on or off'],
    [{ handoffMessage: '' }, 'handoffMessage', 'The handoff message is required'],
    [
      { fallbackMessage: 'x'.repeat(1001) },
      'fallbackMessage',
      'The fallback message must be at most 1000 characters',
    ],
    [
      { officeHours: { ...berlin, timeZone: 'Mars/Olympus' } },
      'officeHours.timeZone',
      'Time zone must be an IANA time zone such as Europe/Berlin',
    ],
    [
      {
        officeHours: {
          ...berlin,
          days: { ...berlin.days, monday: { open: true, opens: '18:00', closes: '09:00' } },
        },
      },
      'officeHours.days.monday.closes',
      'Closing time must be after opening time',
    ],
    [
      {
        officeHours: {
          ...berlin,
          days: { ...berlin.days, friday: { open: true, opens: '9am', closes: '17:00' } },
        },
      },
      'officeHours.days.friday.opens',
      'Opening time must be a time (HH:MM)',
    ],
    [
      { officeHours: { ...berlin, outsideHours: 'ignore' } },
      'officeHours.outsideHours',
      'Outside office hours must be one of: answer, message',
    ],
  ]
  for (const [body, field, message] of refusals) {
    const refused = await user.call('PATCH', path, { body })
    expect(refused.status, message).toBe(400)
    expect(refused.body.message, message).toBe(message)
    expect(refused.body.errors, message).toEqual({ [field]: [message] })
    const onCreate = await create(valid(body))
    expect(onCreate.status, message).toBe(400)
    expect(onCreate.body.errors, message).toEqual({ [field]: [message] })
  }
  expect((await user.call<AgentWithBehaviour>('GET', path)).body.data).toEqual(stored)
})
