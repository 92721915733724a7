/**
 * The API fuzz of the hardening issue (issue 13, docs/decisions/028), repeatable: two tenants, each with an
 * organization, an agent and an invitation, then every operation of /api/v1/openapi.json called many times with
 * mutated path params, queries, bodies, headers and credentials. Every answer is classified; a 5xx that is not an
 * upstream failure (502/503 with UPSTREAM_ERROR or NOT_CONFIGURED) or a response that shows one tenant the other's
 * data fails the run (exit 1); non-JSON answers from /api/v1 and network errors are listed too.
 *
 *   node --import tsx scripts/fuzz-api.ts          (npm run fuzz:api)
 *
 * FUZZ_BASE_URL (http://127.0.0.1:3930) · FUZZ_REQUESTS (1200) · FUZZ_SEED (1: the same seed sends the same
 * mutations in the same order; the fixtures' ids are new each run) · FUZZ_RATE_PER_MINUTE (480: the API allows
 * 600/min per address and 300/min per user; requests alternate between the two users) · FUZZ_CONCURRENCY (4) ·
 * FUZZ_REPORT (a path: every request and its answer as JSON) · FUZZ_VERBOSE=1 (one line per request) ·
 * FIREBASE_AUTH_EMULATOR_HOST (127.0.0.1:9099).
 *
 * Self-contained on purpose: it talks HTTP to the server and the Auth emulator and imports no app code but the
 * body limit. Raw node:http, not fetch, so that paths such as `..` or `%zz` reach the server as written.
 */
import http from 'node:http'
import https from 'node:https'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { REQUEST_BODY_LIMITS } from '../app/lib/shared/constants'

const BASE = new URL(process.env.FUZZ_BASE_URL ?? 'http://127.0.0.1:3930')
const REQUESTS = positiveInt(process.env.FUZZ_REQUESTS, 1200)
const SEED = process.env.FUZZ_SEED ?? '1'
const RATE_PER_MINUTE = positiveInt(process.env.FUZZ_RATE_PER_MINUTE, 480)
const CONCURRENCY = positiveInt(process.env.FUZZ_CONCURRENCY, 4)
const REPORT = process.env.FUZZ_REPORT
const VERBOSE = process.env.FUZZ_VERBOSE === '1'
const EMULATOR = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'
const TIMEOUT_MS = 30_000
const API_PREFIX = '/api/v1'
const BODY_LIMIT = REQUEST_BODY_LIMITS.default
/** Platform names the API knows (app/lib/channels/channels.ts), for {platform}. */
const PLATFORMS = ['telegram', 'facebook', 'whatsapp', 'instagram', 'tiktok']
/** 5xx answers that mean "a platform we cannot reach" or "not configured here", not a bug. */
const UPSTREAM_CODES = new Set(['UPSTREAM_ERROR', 'NOT_CONFIGURED'])

function positiveInt(value: string | undefined, fallback: number) {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : fallback
}

// ---------------------------------------------------------------------------------------------------------------
// A seeded PRNG (mulberry32 over an FNV-1a hash of the seed)

function hashSeed(text: string) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

function prng(seed: string) {
  let state = hashSeed(seed)
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]
  const hex = (n: number) => Array.from({ length: n }, () => int(16).toString(16)).join('')
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`
  return { next, int, pick, hex, uuid }
}

const rng = prng(SEED)

// ---------------------------------------------------------------------------------------------------------------
// The OpenAPI document

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  enum?: unknown[]
  const?: unknown
  $ref?: string
  pattern?: string
  format?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  default?: unknown
  additionalProperties?: boolean | Schema
}
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema }
type OpenApiOperation = {
  operationId?: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
}
type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> }

type Operation = {
  method: string
  template: string
  id: string
  pathParams: Parameter[]
  queryParams: Parameter[]
  /** X-Organization-Id: required (the calls whose path names no organization), optional, or not taken. */
  orgHeader: 'required' | 'optional' | 'none'
  body?: Schema
}

let documentRoot: OpenApi | undefined

function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {}
  if (!schema.$ref || !documentRoot) return schema
  let node: unknown = documentRoot
  for (const part of schema.$ref.replace(/^#\//, '').split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return (node as Schema | undefined) ?? {}
}

const typeOf = (schema: Schema) => {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0]
  if (schema.type) return schema.type
  if (schema.properties) return 'object'
  if (schema.items) return 'array'
  return undefined
}

function orgHeaderOf(parameters: Parameter[]): Operation['orgHeader'] {
  const header = parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'x-organization-id')
  return header ? (header.required ? 'required' : 'optional') : 'none'
}

function operationsOf(document: OpenApi): Operation[] {
  const operations: Operation[] = []
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? []
      operations.push({
        method: method.toUpperCase(),
        template,
        id: operation.operationId ?? `${method} ${template}`,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        orgHeader: orgHeaderOf(parameters),
        body: operation.requestBody?.content['application/json']?.schema,
      })
    }
  }
  return operations
}

// ---------------------------------------------------------------------------------------------------------------
// Tenants

type Tenant = {
  label: 'A' | 'B'
  email: string
  uid: string
  idToken: string
  orgId: string
  orgName: string
  agentId: string
  agentName: string
  agentReadableId: string
  invitationId?: string
  /** Names the fuzz gave the tenant's organization or agent later (a valid rename), to look for as well. */
  laterNames: string[]
}

const runTag = randomBytes(4).toString('hex')

async function signUp(label: string) {
  const email = `fuzz-${label.toLowerCase()}-${runTag}@example.com`
  const answer = await send({
    url: new URL(`http://${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`),
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email,
      password: 'Secret123',
      displayName: `Fuzz ${label}`,
      returnSecureToken: true,
    }),
  })
  if (answer.status !== 200) throw new Error(`sign-up in the Auth emulator: ${answer.status} ${answer.text}`)
  const body = JSON.parse(answer.text) as { idToken: string; localId: string }
  return { email, uid: body.localId, idToken: body.idToken }
}

async function setupCall(token: string, method: string, path: string, body: unknown) {
  const answer = await send({
    url: new URL(path, BASE),
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`setup ${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`)
  }
  return (JSON.parse(answer.text) as { data: Record<string, unknown> }).data
}

async function makeTenant(label: 'A' | 'B', operations: Operation[]): Promise<Tenant> {
  const account = await signUp(label)
  const orgName = `Fuzz Org ${label} ${runTag}`
  const org = await setupCall(account.idToken, 'POST', `${API_PREFIX}/organizations`, { name: orgName })
  const orgId = String(org.id)
  const agentName = `Fuzz Agent ${label} ${runTag}`
  const agentReadableId = `fuzz-${label.toLowerCase()}-${runTag}`
  const createAgent = operations.find(
    (o) => o.method === 'POST' && o.template === `${API_PREFIX}/organizations/{orgId}/agents`,
  )
  const agentBody = {
    ...(validValue(resolve(createAgent?.body), undefined) as Record<string, unknown>),
    name: agentName,
    readableId: agentReadableId,
    systemPrompt: 'You answer questions about the fuzz run politely.',
    // Office hours (IANA names, HH:MM) and the knowledge sources (ids of the organization's) are checked beyond what
    // the document's schema says: generated values fail them. The fuzz itself still sends them mutated.
    officeHours: null,
    knowledgeSourceIds: [],
  }
  const agent = await setupCall(
    account.idToken,
    'POST',
    `${API_PREFIX}/organizations/${orgId}/agents`,
    agentBody,
  )
  const tenant: Tenant = {
    label,
    ...account,
    orgId,
    orgName,
    agentId: String(agent.id),
    agentName,
    agentReadableId,
    laterNames: [],
  }
  // An invitation (to an address nobody owns) so that {invitationId} has a real value too; optional.
  try {
    const invitation = await setupCall(
      account.idToken,
      'POST',
      `${API_PREFIX}/organizations/${orgId}/invitations`,
      { email: `fuzz-invitee-${label.toLowerCase()}-${runTag}@example.com` },
    )
    tenant.invitationId = String(invitation.id)
  } catch (error) {
    console.warn(`(no invitation for tenant ${label}: ${(error as Error).message})`)
  }
  return tenant
}

/** What of a tenant must never reach the other tenant (or an unauthenticated caller). */
function secretsOf(t: Tenant): [string, string][] {
  const secrets: [string, string][] = [
    ['organization id', t.orgId],
    ['organization name', t.orgName],
    ['agent id', t.agentId],
    ['agent name', t.agentName],
    ['agent readable id', t.agentReadableId],
    ['uid', t.uid],
    ['email', t.email],
  ]
  if (t.invitationId) secrets.push(['invitation id', t.invitationId])
  for (const name of t.laterNames) secrets.push(['later name', name])
  return secrets
}

// ---------------------------------------------------------------------------------------------------------------
// Values: valid ones from a schema, and their mutations

type Actor = { self: Tenant; other: Tenant }

/** A value that satisfies the schema, with real ids of the actor where a field names one. */
function validValue(schema: Schema, actor: Actor | undefined, name = '', depth = 0): unknown {
  schema = resolve(schema)
  if (depth > 8) return null
  const variants = schema.oneOf ?? schema.anyOf
  if (variants?.length) {
    const concrete = variants.filter((v) => resolve(v).type !== 'null')
    return validValue(rng.pick(concrete.length ? concrete : variants), actor, name, depth + 1)
  }
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((s) => validValue(s, actor, name, depth + 1)))
  }
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  const byName = namedValue(name, actor)
  if (byName !== undefined && typeOf(schema) === 'string') return byName
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        out[key] = validValue(property, actor, key, depth + 1)
      }
      return out
    }
    case 'array':
      return [validValue(schema.items ?? {}, actor, name, depth + 1)]
    case 'integer': {
      const low = schema.minimum ?? 1
      const high = schema.maximum ?? low + 100
      return Math.max(low, Math.min(high, Math.round((low + high) / 2)))
    }
    case 'number': {
      const low = schema.minimum ?? 0
      const high = schema.maximum ?? low + 1
      return (low + high) / 2
    }
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return stringFor(schema)
  }
}

function stringFor(schema: Schema): string {
  if (schema.format === 'email') return `fuzz-${rng.hex(8)}@example.com`
  if (schema.format === 'uuid' || schema.pattern?.includes('[0-9a-f]{8}')) return rng.uuid()
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/fuzz'
  const digits = /^\^\\d\{(\d+)(?:,(\d+))?\}\$$/.exec(schema.pattern ?? '')
  if (digits) return '1234567890'.repeat(4).slice(0, Math.min(10, Number(digits[2] ?? digits[1])))
  if (schema.pattern?.includes(':')) return `${100000 + rng.int(899999)}:${rng.hex(35)}` // a Telegram bot token
  if (schema.pattern === '^[a-z0-9-]+$') return `fuzz-${rng.hex(8)}`
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 200
  const text = `Fuzz text ${rng.hex(6)} for the API`
  return text.length < min ? text.padEnd(min, 'x') : text.slice(0, Math.max(min, Math.min(max, text.length)))
}

/** A real value for a field or parameter by its name: the actor's own ids. */
function namedValue(name: string, actor: Actor | undefined): string | undefined {
  if (!actor) return undefined
  const own = actor.self
  switch (name) {
    case 'orgId':
    case 'organizationId':
      return own.orgId
    case 'agentId':
      return own.agentId
    case 'invitationId':
      return own.invitationId ?? rng.uuid()
    case 'uid':
    case 'memberId':
    case 'userId':
      return own.uid
    case 'channelId':
      return rng.uuid()
    case 'platform':
    case 'platformName':
      return rng.pick(PLATFORMS)
    case 'readableId':
      return `fuzz-${rng.hex(8)}`
    case 'name':
      return `Fuzz ${rng.hex(6)}`
    case 'email':
      return `fuzz-${rng.hex(8)}@example.com`
    default:
      return undefined
  }
}

/** The same field of the other tenant, where it has one. */
function otherValue(name: string, actor: Actor): string | undefined {
  const other = actor.other
  switch (name) {
    case 'orgId':
    case 'organizationId':
      return other.orgId
    case 'agentId':
      return other.agentId
    case 'invitationId':
      return other.invitationId
    case 'uid':
    case 'memberId':
    case 'userId':
      return other.uid
    case 'email':
      return other.email
    default:
      return undefined
  }
}

const LONG = 'A'.repeat(10_000)

/** Path parameter mutations: the value, or a raw path segment (sent as written) when `raw` is set. */
const PATH_MUTATIONS: { what: string; value: (name: string, actor: Actor) => string; raw?: boolean }[] = [
  { what: 'own real id', value: (n, a) => namedValue(n, a) ?? rng.uuid() },
  // Three times: tenant isolation is what this fuzz is most for.
  ...Array.from({ length: 3 }, () => ({
    what: "the other tenant's id",
    value: (n: string, a: Actor) => otherValue(n, a) ?? rng.uuid(),
  })),
  { what: 'a random UUID', value: () => rng.uuid() },
  { what: 'the nil UUID', value: () => '00000000-0000-0000-0000-000000000000' },
  { what: 'own id in upper case', value: (n, a) => (namedValue(n, a) ?? rng.uuid()).toUpperCase() },
  { what: 'own id plus a character', value: (n, a) => `${namedValue(n, a) ?? rng.uuid()}0` },
  { what: 'not a UUID', value: () => 'not-a-uuid' },
  { what: 'NUL', value: () => 'a\u0000b' },
  { what: 'a 10,000-character string', value: () => LONG },
  { what: 'unicode', value: () => 'ユニコード🚀\u202etxt' },
  { what: 'a lone surrogate', value: () => '%ED%A0%80', raw: true },
  { what: '..', value: () => '..', raw: true },
  { what: '../ (raw)', value: () => '../../../etc/passwd', raw: true },
  { what: '..%2F (encoded)', value: () => '../../admin' },
  { what: 'a literal %00', value: () => '%00', raw: true },
  { what: 'the text "%00"', value: () => '%00' },
  { what: 'a malformed escape %zz', value: () => '%zz', raw: true },
  { what: 'empty', value: () => '' },
  { what: 'a space', value: () => ' ' },
  { what: 'SQL', value: () => "' OR '1'='1" },
  { what: 'an unknown platform', value: () => 'myspace' },
  { what: 'a platform in capitals', value: () => 'TELEGRAM' },
  { what: '__proto__', value: () => '__proto__' },
]

const QUERY_MUTATIONS: { what: string; query: (name: string) => string }[] = [
  { what: 'a wrong type', query: (n) => `${n}=abc` },
  { what: 'NUL', query: (n) => `${n}=a%00b` },
  { what: 'a huge number', query: (n) => `${n}=99999999999999999999999999` },
  { what: '1e309', query: (n) => `${n}=1e309` },
  { what: 'a negative number', query: (n) => `${n}=-1` },
  { what: 'zero', query: (n) => `${n}=0` },
  { what: 'a fraction', query: (n) => `${n}=1.5` },
  { what: 'an array a=1&a=2', query: (n) => `${n}=1&${n}=2` },
  { what: 'bracket syntax', query: (n) => `${n}[]=1&${n}[x]=2` },
  { what: 'empty', query: (n) => `${n}=` },
  { what: 'no value', query: (n) => n },
  { what: 'a long value', query: (n) => `${n}=${'9'.repeat(5000)}` },
  { what: 'a malformed escape', query: (n) => `${n}=%zz` },
  { what: 'unicode', query: (n) => `${n}=${encodeURIComponent('🚀ü')}` },
  { what: 'an unknown parameter', query: () => 'fuzz=1&__proto__=x&constructor[prototype][x]=1' },
]

const HEADER_MUTATIONS: { what: string; headers: (a: Actor) => Record<string, string> }[] = [
  { what: "X-Organization-Id: the other tenant's", headers: (a) => ({ 'X-Organization-Id': a.other.orgId }) },
  { what: 'X-Organization-Id: a random UUID', headers: () => ({ 'X-Organization-Id': rng.uuid() }) },
  { what: 'X-Organization-Id: garbage', headers: () => ({ 'X-Organization-Id': "'; DROP TABLE x; --" }) },
  { what: 'X-Organization-Id: 8 KB', headers: () => ({ 'X-Organization-Id': 'x'.repeat(8_000) }) },
  { what: 'X-Organization-Id: empty', headers: () => ({ 'X-Organization-Id': '' }) },
  {
    what: 'X-Organization-Id: own, then the other',
    headers: (a) => ({ 'X-Organization-Id': `${a.self.orgId},${a.other.orgId}` }),
  },
  {
    what: 'X-Organization-Id: own in upper case',
    headers: (a) => ({ 'X-Organization-Id': a.self.orgId.toUpperCase() }),
  },
  { what: 'X-Organization-Id: latin-1 bytes', headers: () => ({ 'X-Organization-Id': 'ÿþ\u00a0é' }) },
  { what: 'Accept: text/html', headers: () => ({ Accept: 'text/html' }) },
  { what: 'X-Forwarded-For spoofed', headers: () => ({ 'X-Forwarded-For': '1.2.3.4' }) },
]

/** An unsigned JWT (alg none) that claims a made-up user. */
function unsignedToken() {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const sub = `fuzz-forged-${rng.hex(8)}`
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    iss: 'https://securetoken.google.com/demo-replypilot',
    aud: 'demo-replypilot',
    sub,
    user_id: sub,
    iat: now,
    exp: now + 3600,
    auth_time: now,
  })}.`
}

const AUTH_MUTATIONS: { what: string; authorization: (a: Actor) => string | undefined }[] = [
  { what: 'no Authorization', authorization: () => undefined },
  { what: 'Authorization: Bearer (no token)', authorization: () => 'Bearer' },
  { what: 'Authorization: Bearer garbage', authorization: () => `Bearer ${rng.hex(40)}` },
  { what: 'Authorization: Basic', authorization: () => 'Basic dXNlcjpwYXNz' },
  {
    what: 'Authorization: the token with a changed payload',
    authorization: (a) => `Bearer ${tamper(a.self.idToken)}`,
  },
  {
    what: 'Authorization: an unsigned JWT for a made-up user',
    authorization: () => `Bearer ${unsignedToken()}`,
  },
  {
    what: 'Authorization: two Bearer tokens',
    authorization: (a) => `Bearer ${a.self.idToken} ${a.other.idToken}`,
  },
  { what: 'Authorization: 8 KB', authorization: () => `Bearer ${'x'.repeat(8_000)}` },
]

/** The token with one character of its payload changed (still base64url). */
function tamper(token: string) {
  const [header, payload, signature] = token.split('.')
  const i = Math.floor(payload.length / 2)
  const swapped = payload[i] === 'A' ? 'B' : 'A'
  return `${header}.${payload.slice(0, i)}${swapped}${payload.slice(i + 1)}.${signature}`
}

type BodyMutation = { what: string; text?: string; contentType?: string }

/** A deeply nested array, as text: JSON.parse copes, recursive walkers may not. */
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

/** One mutation of a body built from the schema. */
function mutateBody(schema: Schema, actor: Actor): BodyMutation {
  schema = resolve(schema)
  const valid = validValue(schema, actor)
  const isObject = valid !== null && typeof valid === 'object' && !Array.isArray(valid)
  const fields = isObject ? Object.keys(valid as Record<string, unknown>) : []
  const required = resolve(schema).required ?? []
  const withField = (field: string, value: unknown) => ({ ...(valid as object), [field]: value })
  const json = (what: string, value: unknown, contentType?: string): BodyMutation => ({
    what,
    text: JSON.stringify(value),
    contentType,
  })
  const field = fields.length ? rng.pick(fields) : 'name'
  const kinds: (() => BodyMutation)[] = [
    () => json('a valid body', valid),
    () => json('a valid body', valid),
    () => {
      const current = (valid as Record<string, unknown>)[field]
      const wrong =
        typeof current === 'string'
          ? rng.pick([123, true, ['x'], { x: 1 }])
          : typeof current === 'number'
            ? rng.pick(['12', 'NaN', true, [1], { n: 1 }])
            : typeof current === 'boolean'
              ? rng.pick(['true', 1, [true]])
              : rng.pick(['x', 1, false, []])
      return json(`${field}: a wrong type (${JSON.stringify(wrong)})`, withField(field, wrong))
    },
    () => {
      const missing = required.length ? rng.pick(required) : field
      const copy = { ...(valid as Record<string, unknown>) }
      delete copy[missing]
      return json(`required ${missing} missing`, copy)
    },
    () => json('an empty object', {}),
    () => ({
      what: 'extra fields (__proto__, role, plan, organizationId of the other tenant, isAdmin)',
      text: JSON.stringify({
        ...(isObject ? (valid as object) : {}),
        role: 'owner',
        plan: 'enterprise',
        isAdmin: true,
        organizationId: actor.other.orgId,
        createdBy: actor.other.uid,
        id: actor.other.agentId,
      }).replace(/^\{/, '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},'),
    }),
    () => json(`${field}: null`, withField(field, null)),
    () => json('null', null),
    () =>
      json(
        `${field}: an array of 100,000 numbers`,
        withField(
          field,
          Array.from({ length: 100_000 }, (_, i) => i),
        ),
      ),
    () => ({
      what: `${field}: arrays nested 20,000 deep`,
      text: JSON.stringify(withField(field, 'DEEP')).replace('"DEEP"', deep(20_000)),
    }),
    () => ({
      what: `context.metadata nested 20,000 deep`,
      text: JSON.stringify({
        ...(isObject ? (valid as object) : {}),
        context: { metadata: { x: 0 } },
      }).replace(/"x":0/, `"x":${deep(20_000)}`),
    }),
    () => json(`${field}: a string over the body limit`, withField(field, 'x'.repeat(BODY_LIMIT + 65_536))),
    () => json(`${field}: a 900 KB string (under the body limit)`, withField(field, 'y'.repeat(900_000))),
    () => json(`${field}: NUL`, withField(field, 'a\u0000b')),
    () => json(`a key with NUL`, { ...(valid as object), 'k\u0000': 'v' }),
    () => json(`${field}: unicode and RTL`, withField(field, 'Zürich 🚀 \u202eabc\u200b مرحبا')),
    () => ({
      what: `${field}: a lone surrogate`,
      text: JSON.stringify(withField(field, 'LONE')).replace('"LONE"', '"\\ud800x"'),
    }),
    () => json(`${field}: 1e308`, withField(field, 1e308)),
    () => ({
      what: `${field}: 1e400`,
      text: JSON.stringify(withField(field, 'BIG')).replace('"BIG"', '1e400'),
    }),
    () => json(`${field}: -1`, withField(field, -1)),
    () => json(`${field}: 2^53`, withField(field, 2 ** 53)),
    () => {
      const idField = fields.find((f) => otherValue(f, actor) !== undefined)
      if (!idField) return json("other tenant's ids (no id field: a valid body)", valid)
      return json(`${idField}: the other tenant's`, withField(idField, otherValue(idField, actor)))
    },
    () => ({
      what: 'invalid JSON',
      text: rng.pick(['{', '{"a":', "{'a':1}", '{"a":1}}', 'undefined', 'NaN', '[1,]']),
    }),
    () => ({ what: 'a BOM before the JSON', text: `\ufeff${JSON.stringify(valid)}` }),
    () => ({ what: 'an empty body', text: '' }),
    () => ({ what: 'a body of spaces', text: '   \n ' }),
    () => json('a JSON array', [valid]),
    () => json('a JSON number', 42),
    () => json('a JSON string', 'hello'),
    () => json('true', true),
    () => json('a valid body as text/plain', valid, 'text/plain'),
    () => ({
      what: 'a form body',
      text: 'name=Fuzz+Form&email=a%40b.c',
      contentType: 'application/x-www-form-urlencoded',
    }),
    () => ({
      what: 'a multipart body',
      text: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nFuzz\r\n--b--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    }),
    () => json('no Content-Type', valid, ''),
    () => json('Content-Type: application/json; charset=utf-16', valid, 'application/json; charset=utf-16'),
  ]
  return rng.pick(kinds)()
}

// ---------------------------------------------------------------------------------------------------------------
// The plan: which operation gets which kind of mutation, in an order that keeps the fixtures alive

type Kind = 'valid' | 'path' | 'query' | 'body' | 'header' | 'auth' | 'method'
type Planned = { operation: Operation; kind: Kind }
type RequestSpec = {
  operation: Operation
  actor: Tenant | 'anonymous'
  actingAs: Tenant
  description: string
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

function kindsFor(operation: Operation): Kind[] {
  const kinds: Kind[] = ['valid', 'header', 'auth', 'method']
  if (operation.pathParams.length) kinds.push('path', 'path', 'path')
  kinds.push('query')
  if (operation.body) kinds.push('body', 'body', 'body', 'body')
  return kinds
}

/** Calls that may destroy a fixture go last, and deleting an organization last of all. */
function priority(operation: Operation) {
  const t = operation.template
  if (operation.method === 'DELETE' && t.endsWith('/organizations/{orgId}')) return 3
  if (t.endsWith('/leave') || (operation.method === 'DELETE' && /members|agents/.test(t))) return 2
  if (operation.method === 'DELETE') return 1
  return 0
}

function plan(operations: Operation[], count: number): Planned[] {
  const items: Planned[] = []
  for (let i = 0; i < count; i++) {
    const operation = operations[i % operations.length]
    items.push({ operation, kind: rng.pick(kindsFor(operation)) })
  }
  return items
    .map((item, index) => ({ item, index }))
    .sort((x, y) => priority(x.item.operation) - priority(y.item.operation) || x.index - y.index)
    .map(({ item }) => item)
}

function fillPath(
  operation: Operation,
  actor: Actor,
  override?: { name: string; value: string; raw?: boolean },
) {
  return operation.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override?.name === name) return override.raw ? override.value : encodeURIComponent(override.value)
    return encodeURIComponent(namedValue(name, actor) ?? rng.uuid())
  })
}

function build(planned: Planned, actor: Actor): RequestSpec {
  const { operation } = planned
  let kind = planned.kind
  let description = 'valid'
  let path = fillPath(operation, actor)
  let method = operation.method
  const headers: Record<string, string> = { Authorization: `Bearer ${actor.self.idToken}` }
  let actingAs: RequestSpec['actor'] = actor.self
  // The header where required; where optional, now and then (never with a mutated path: a mismatch with the path
  // is a 400 before the organization scope is checked, which would hide what the mutation is for).
  if (
    operation.orgHeader === 'required' ||
    (operation.orgHeader === 'optional' && kind !== 'path' && rng.next() < 0.25)
  ) {
    headers['X-Organization-Id'] = actor.self.orgId
  }
  let body: string | undefined
  let contentType: string | undefined = 'application/json'
  if (operation.body) body = JSON.stringify(validValue(operation.body, actor))
  if (kind === 'query' && !operation.queryParams.length && rng.next() < 0.5) kind = 'header'
  switch (kind) {
    case 'path': {
      const param = rng.pick(operation.pathParams)
      const mutation = rng.pick(PATH_MUTATIONS)
      path = fillPath(operation, actor, {
        name: param.name,
        value: mutation.value(param.name, actor),
        raw: mutation.raw,
      })
      description = `{${param.name}}: ${mutation.what}`
      break
    }
    case 'query': {
      const name = operation.queryParams.length ? rng.pick(operation.queryParams).name : 'page'
      const mutation = rng.pick(QUERY_MUTATIONS)
      path = `${path}?${mutation.query(name)}`
      description = `query ${name}: ${mutation.what}`
      break
    }
    case 'body': {
      const mutation = mutateBody(operation.body ?? {}, actor)
      body = mutation.text
      if (mutation.contentType !== undefined) contentType = mutation.contentType || undefined
      description = `body: ${mutation.what}`
      break
    }
    case 'header': {
      const mutation = rng.pick(HEADER_MUTATIONS)
      Object.assign(headers, mutation.headers(actor))
      description = mutation.what
      break
    }
    case 'auth': {
      const mutation = rng.pick(AUTH_MUTATIONS)
      const authorization = mutation.authorization(actor)
      if (authorization === undefined) delete headers.Authorization
      else headers.Authorization = authorization
      if (!mutation.what.includes('changed payload') && !mutation.what.includes('two Bearer'))
        actingAs = 'anonymous'
      description = mutation.what
      break
    }
    case 'method': {
      method = rng.pick(
        ['PUT', 'PATCH', 'DELETE', 'POST', 'GET', 'OPTIONS', 'HEAD', 'TRACE'].filter((m) => m !== method),
      )
      if (method === 'GET' || method === 'HEAD' || method === 'TRACE') body = undefined
      description = `method ${method} instead of ${operation.method}`
      break
    }
    case 'valid':
      if (!operation.body && method !== 'GET' && rng.next() < 0.3) {
        body = JSON.stringify({ unexpected: 'body' })
        description = 'a body where none is expected'
      }
      break
  }
  if (body !== undefined && contentType) headers['Content-Type'] = contentType
  return { operation, actor: actingAs, actingAs: actor.self, description, method, path, headers, body }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

type Answer = Reply | { error: string }

// FIFO: every kept-alive socket stays in use, none idles towards the server's keep-alive timeout (5 s), which is
// where a reused socket meets a reset.
const agentOptions = { keepAlive: true, scheduling: 'fifo' as const, maxSockets: CONCURRENCY }
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
const MAX_KEPT = 2_000_000

type Reply = { status: number; contentType: string; text: string; size: number; retryAfter?: string }
/** What each kept-alive socket last carried, to explain a reset on the next request it carries. */
const lastOnSocket = new WeakMap<object, string>()

class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** The request the same socket carried before this one, when the socket was reused. */
    readonly previous: string | undefined,
  ) {
    super(message)
  }
}

function send(request: {
  url: URL
  method: string
  headers: Record<string, string>
  body?: string
  rawPath?: string
  label?: string
}): Promise<Reply> {
  const { url } = request
  const payload = request.body === undefined ? undefined : Buffer.from(request.body)
  const secure = url.protocol === 'https:'
  return new Promise((resolvePromise, reject) => {
    let previous: string | undefined
    const req = (secure ? https : http).request(
      {
        host: url.hostname,
        port: url.port || (secure ? 443 : 80),
        path: request.rawPath ?? `${url.pathname}${url.search}`,
        method: request.method,
        agent: secure ? agents.https : agents.http,
        headers: { ...request.headers, ...(payload ? { 'Content-Length': String(payload.length) } : {}) },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = []
        let kept = 0
        res.on('data', (chunk: Buffer) => {
          if (kept < MAX_KEPT) chunks.push(chunk)
          kept += chunk.length
        })
        res.on('end', () => {
          lastOnSocket.set(
            req.socket ?? {},
            `${request.label ?? `${request.method} ${url.pathname}`} → ${res.statusCode}${
              res.headers.connection ? ` (Connection: ${res.headers.connection})` : ''
            }`,
          )
          resolvePromise({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            size: kept,
            retryAfter: res.headers['retry-after'] as string | undefined,
          })
        })
        res.on('error', (e: NodeJS.ErrnoException) => reject(new NetworkError(e.message, e.code, previous)))
      },
    )
    req.on('socket', (socket) => {
      previous = lastOnSocket.get(socket)
    })
    req.on('timeout', () => req.destroy(new Error(`timeout after ${TIMEOUT_MS} ms`)))
    req.on('error', (e: NodeJS.ErrnoException) => reject(new NetworkError(e.message, e.code, previous)))
    req.end(payload)
  })
}

/** Requests that met a reset on a reused socket and were sent again on a new one. */
const resets: Finding[] = []

async function sendSpec(spec: RequestSpec): Promise<Answer> {
  const attempt = () =>
    send({
      url: BASE,
      rawPath: spec.path,
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
      label: `${spec.method} ${shortPath(spec.path)} [${spec.description}]`,
    })
  try {
    return await attempt()
  } catch (error) {
    const e = error as NetworkError
    // A kept-alive socket the server closed after the previous answer: not this request's doing. Say so, and
    // send it again on a fresh socket.
    if (e.previous && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
      resets.push(findingOf(spec, `${e.code} on a reused socket; its previous request: ${e.previous}`))
      try {
        return await attempt()
      } catch (again) {
        const e2 = again as NetworkError
        return { error: `${e2.code ?? ''} ${e2.message} (after a retry)`.trim() }
      }
    }
    return { error: `${e.code ? `${e.code}: ` : ''}${e.message}` }
  }
}

/** Start times spaced to the rate; a 429 pauses everyone until its Retry-After. */
let nextSlot = 0
const interval = 60_000 / RATE_PER_MINUTE
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
async function slot() {
  const now = Date.now()
  const at = Math.max(now, nextSlot)
  nextSlot = at + interval
  if (at > now) await sleep(at - now)
}

// ---------------------------------------------------------------------------------------------------------------
// Classification

type Finding = {
  method: string
  template: string
  path: string
  description: string
  actor: string
  detail: string
  body?: string
}
/** One line, whatever the answer held (HTML error pages included). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

function findingOf(spec: RequestSpec, detail: string): Finding {
  return {
    method: spec.method,
    template: spec.operation.template,
    path: shortPath(spec.path),
    description: spec.description,
    actor: spec.actor === 'anonymous' ? 'anonymous' : spec.actor.label,
    detail: oneLine(detail),
    body: spec.body === undefined ? undefined : shortBody(spec.body),
  }
}

type Outcome = {
  index: number
  method: string
  template: string
  path: string
  actor: string
  description: string
  status: number | 'network error'
  code?: string
  message?: string
  body?: string
}

const statusCounts = new Map<string, number>()
const serverErrors: Finding[] = []
const upstreamErrors: Finding[] = []
const leaks: Finding[] = []
const nonJson: Finding[] = []
const networkErrors: Finding[] = []
const escaped: Finding[] = []
const invitationViews: Finding[] = []
/** Answers over 1 MB (an error listing every item of a huge array, say): listed, not flagged. */
const oversized: Finding[] = []
const OVERSIZED = 1024 * 1024
/** "A>B": tenant A invited tenant B (a fuzzed request named B's email or uid and was answered 2xx). */
const invitations = new Set<string>()
const records: Outcome[] = []
let rateLimited = 0

const shortPath = (path: string) => (path.length > 140 ? `${path.slice(0, 137)}...` : path)
const shortBody = (body: string | undefined) =>
  body === undefined ? '' : body.length > 200 ? `${body.slice(0, 160)}... (${body.length} bytes)` : body

/** Where the server routes the raw path, after URL normalisation: does it stay under /api/ (the API)? */
function underApi(path: string) {
  try {
    return new URL(path, 'http://x').pathname.startsWith('/api/')
  } catch {
    return true
  }
}

function classify(index: number, spec: RequestSpec, answer: Answer, tenants: Tenant[]) {
  const finding = (detail: string) => findingOf(spec, detail)
  const record: Outcome = {
    index,
    method: spec.method,
    template: spec.operation.template,
    path: shortPath(spec.path),
    actor: spec.actor === 'anonymous' ? 'anonymous' : spec.actor.label,
    description: spec.description,
    status: 'error' in answer ? 'network error' : answer.status,
    body: shortBody(spec.body),
  }
  records.push(record)
  if ('error' in answer) {
    statusCounts.set('network error', (statusCounts.get('network error') ?? 0) + 1)
    networkErrors.push(finding(answer.error))
    return
  }
  const key = String(answer.status)
  statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1)
  let parsed: { code?: string; message?: string; data?: { id?: unknown; name?: unknown } } | undefined
  try {
    parsed = JSON.parse(answer.text) as typeof parsed
  } catch {
    parsed = undefined
  }
  // A rename of the actor's own organization or agent: its new name is the tenant's too, from now on (only the
  // fuzz's own "Fuzz 1a2b3c" names: "Zürich 🚀" could be both tenants' and prove nothing).
  const data = parsed?.data
  if (spec.actor !== 'anonymous' && answer.status === 200 && spec.method === 'PATCH' && data) {
    const self = spec.actor
    if ((data.id === self.orgId || data.id === self.agentId) && typeof data.name === 'string') {
      if (/^Fuzz [0-9a-f]{6}$/.test(data.name) && !self.laterNames.includes(data.name))
        self.laterNames.push(data.name)
    }
  }
  record.code = parsed?.code
  record.message = parsed?.message ?? answer.text.slice(0, 120)
  if (answer.status === 429) rateLimited++
  const message =
    `${answer.status} ${parsed?.code ?? ''} ${parsed?.message ?? answer.text.slice(0, 160)}`.trim()
  if (answer.status >= 500) {
    const upstream =
      (answer.status === 502 || answer.status === 503) && UPSTREAM_CODES.has(parsed?.code ?? '')
    ;(upstream ? upstreamErrors : serverErrors).push(finding(message))
  }
  if (answer.size > OVERSIZED) {
    const sentBytes = Buffer.byteLength(spec.body ?? '')
    oversized.push(finding(`${answer.status}: ${answer.size} bytes answered to a ${sentBytes}-byte body`))
  }
  const json = answer.contentType.includes('application/json') && parsed !== undefined
  if (!json && spec.method !== 'HEAD' && answer.size <= MAX_KEPT) {
    const note = `${answer.status} ${answer.contentType || '(no Content-Type)'}: ${answer.text.slice(0, 100)}`
    ;(underApi(spec.path) ? nonJson : escaped).push(finding(note))
  }
  // A leak: the other tenant's ids or names in the answer (or any tenant's, unauthenticated), unless the request
  // itself carried that value (an echo of the caller's own input is not a leak).
  const self = spec.actor === 'anonymous' ? undefined : spec.actor
  const victims = self ? tenants.filter((t) => t !== self) : tenants
  const sent = `${decodeSafe(spec.path)} ${JSON.stringify(spec.headers)} ${spec.body ?? ''}`
  const ok = answer.status >= 200 && answer.status < 300
  for (const victim of victims) {
    // One tenant invited the other (by email or uid, a mutation that sends the other tenant's): from then on the
    // invitee sees the inviting organization in its invitations and the inviter sees the invitee's address. By
    // design; listed, not flagged.
    if (self && ok && spec.method === 'POST' && /invitations|members/.test(spec.operation.template)) {
      if (sent.includes(victim.email) || sent.includes(victim.uid))
        invitations.add(`${self.label}>${victim.label}`)
    }
    // A 2xx whose data is the other tenant's row (an organization or agent of theirs), even when the request named
    // its id: a write or read across tenants that the echo rule below would excuse.
    if (ok && ownedBy(parsed?.data, victim)) {
      leaks.push(finding(`${answer.status}: data of tenant ${victim.label} in ${answer.text.slice(0, 200)}`))
    }
    for (const [what, value] of secretsOf(victim)) {
      if (!answer.text.includes(value) || sent.includes(value)) continue
      const detail = `${answer.status}: tenant ${victim.label}'s ${what} (${value}) in ${answer.text.slice(0, 200)}`
      const invitee = self && invitations.has(`${victim.label}>${self.label}`)
      const inviter = self && invitations.has(`${self.label}>${victim.label}`)
      const byDesign =
        (invitee && /\/invitations/.test(spec.operation.template) && !/agent/.test(what)) ||
        (inviter && (what === 'email' || what === 'uid'))
      ;(byDesign ? invitationViews : leaks).push(finding(detail))
    }
  }
  if (VERBOSE) {
    console.log(
      `${index} ${record.actor} ${spec.method} ${shortPath(spec.path)} [${spec.description}] → ${message.slice(0, 120)}`,
    )
  }
}

/** Whether `data` (anywhere inside) is a row of the tenant: its organization, or a row of its organization. */
function ownedBy(data: unknown, tenant: Tenant, depth = 0): boolean {
  if (!data || typeof data !== 'object' || depth > 6) return false
  if (Array.isArray(data)) return data.some((item) => ownedBy(item, tenant, depth + 1))
  const row = data as Record<string, unknown>
  if (row.organizationId === tenant.orgId && row.organizationName === undefined) return true
  if (row.id === tenant.orgId || row.id === tenant.agentId) return true
  return Object.values(row).some((value) => ownedBy(value, tenant, depth + 1))
}

function decodeSafe(path: string) {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The run

function table(rows: [string, string | number][]) {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')
}

/** Findings grouped by mutation and answer: one example each, and the operations where it happened. */
function printFindings(title: string, findings: Finding[], limit = 60) {
  if (!findings.length) return
  console.log(`\n${title} (${findings.length}):`)
  const groups = new Map<string, { what: string; example: Finding; count: number; where: Set<string> }>()
  for (const f of findings) {
    const what = f.description.replace(/^\{\w+\}/, '{param}')
    const key = `${what} → ${f.detail.slice(0, 90)}`
    const group = groups.get(key) ?? { what, example: f, count: 0, where: new Set<string>() }
    group.count++
    group.where.add(`${f.method} ${f.template}`)
    groups.set(key, group)
  }
  for (const { what, example: f, count, where } of [...groups.values()].slice(0, limit)) {
    console.log(`  - [${what}] ×${count} → ${f.detail.slice(0, 300)}`)
    console.log(`      e.g. as ${f.actor}: ${f.method} ${f.path}${f.body ? ` body ${f.body}` : ''}`)
    const list = [...where]
    console.log(
      `      on ${list.slice(0, 6).join(', ')}${list.length > 6 ? ` and ${list.length - 6} more` : ''}`,
    )
  }
  if (groups.size > limit) console.log(`  ... and ${groups.size - limit} more groups`)
}

async function main() {
  const started = Date.now()
  console.log(
    `API fuzz: ${BASE.origin}, ${REQUESTS} requests, seed ${SEED}, ${RATE_PER_MINUTE}/min, ${CONCURRENCY} at a time`,
  )
  const doc = await send({ url: new URL(`${API_PREFIX}/openapi.json`, BASE), method: 'GET', headers: {} })
  if (doc.status !== 200) throw new Error(`GET ${API_PREFIX}/openapi.json: ${doc.status}`)
  documentRoot = JSON.parse(doc.text) as OpenApi
  const operations = operationsOf(documentRoot)
  console.log(`${operations.length} operations in the OpenAPI document`)

  const a = await makeTenant('A', operations)
  const b = await makeTenant('B', operations)
  const tenants = [a, b]
  console.log(`tenants: A org ${a.orgId} agent ${a.agentId}; B org ${b.orgId} agent ${b.agentId}`)

  const items = plan(operations, REQUESTS)
  let nextIndex = 0
  let done = 0
  nextSlot = Date.now()
  const worker = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex++
      const self = index % 2 === 0 ? a : b
      const spec = build(items[index], { self, other: self === a ? b : a })
      await slot()
      const answer = await sendSpec(spec)
      if (!('error' in answer) && answer.status === 429) {
        const wait = Math.min(61, Number(answer.retryAfter) || 5) * 1000
        nextSlot = Math.max(nextSlot, Date.now() + wait)
      }
      classify(index, spec, answer, tenants)
      done++
      if (!VERBOSE && done % 100 === 0) console.log(`  ${done}/${items.length} sent`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))

  const counts = [...statusCounts.entries()].sort(([x], [y]) => x.localeCompare(y))
  const total = records.length
  const by = (test: (s: number) => boolean) =>
    counts.filter(([s]) => test(Number(s))).reduce((sum, [, n]) => sum + n, 0)
  console.log(`\nSummary (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  console.log(
    table([
      ['requests sent', total],
      ['2xx', by((s) => s >= 200 && s < 300)],
      ['4xx', by((s) => s >= 400 && s < 500)],
      ['  of which 429', rateLimited],
      ['5xx', by((s) => s >= 500)],
      ['  upstream (502/503)', upstreamErrors.length],
      ['  flagged', serverErrors.length],
      ['network errors', networkErrors.length],
      ['  resets on a reused socket, retried', resets.length],
      ['leaks', leaks.length],
      ['non-JSON from /api/v1', nonJson.length],
      ['answers over 1 MB', oversized.length],
    ]),
  )
  console.log('\nBy status:')
  console.log(table(counts.map(([s, n]) => [s, n])))
  printFindings('5xx (flagged)', serverErrors)
  printFindings('Upstream failures (502/503, not flagged)', upstreamErrors, 20)
  printFindings('Leaks', leaks)
  printFindings('Non-JSON answers from /api/v1', nonJson)
  printFindings('Answers over 1 MB (not flagged)', oversized)
  printFindings('Network errors', networkErrors)
  printFindings('Resets on a reused socket, sent again (not counted as network errors)', resets)
  printFindings('Invitations between the tenants (by design, not flagged)', invitationViews, 10)
  printFindings('Paths that normalise out of /api/v1 (not flagged)', escaped, 10)
  if (REPORT) {
    writeFileSync(
      REPORT,
      JSON.stringify(
        { seed: SEED, tenants: tenants.map((t) => ({ ...t, idToken: undefined })), records },
        null,
        2,
      ),
    )
    console.log(`\nEvery request: ${REPORT}`)
  }
  agents.http.destroy()
  agents.https.destroy()
  const failed = serverErrors.length > 0 || leaks.length > 0
  console.log(failed ? '\nFAIL' : '\nPASS')
  process.exitCode = failed ? 1 : 0
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 2
})
