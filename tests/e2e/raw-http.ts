import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * HTTP/1.1 spoken by hand over one socket, for what a client library hides: a body sent in chunks at our pace,
 * when the answer's head arrives, and whether the same socket then answers the next request.
 */
export type RawConnection = {
  /** Sends a request's head; resolves when written. */
  head(method: string, path: string, headers: Record<string, string>): Promise<void>
  /** Writes bytes as they are (a chunk of a body, or a chunk already framed). */
  write(bytes: Buffer | string): Promise<void>
  /** The next response's status line and headers, once its head has arrived (its body is read and dropped). */
  response(): Promise<{ status: number; headers: Record<string, string>; body: string }>
  close(): void
}

export function connect(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    // Half-open allowed: a server that ends its side after an answer (Connection: close) still reads what is sent.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    let buffered = Buffer.alloc(0)
    let waiting: (() => void) | undefined
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data])
      waiting?.()
    })
    socket.on('error', () => undefined)
    socket.once('connect', () =>
      resolve({
        head: (method, target, headers) =>
          write(
            `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
              .map(([k, v]) => `${k}: ${v}\r\n`)
              .join('')}\r\n`,
          ),
        write,
        response: () =>
          new Promise((done, fail) => {
            const check = () => {
              const end = buffered.indexOf('\r\n\r\n')
              if (end < 0) return
              const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n')
              const headers = Object.fromEntries(
                lines.map((l) => [
                  l.slice(0, l.indexOf(':')).toLowerCase(),
                  l.slice(l.indexOf(':') + 1).trim(),
                ]),
              )
              const rest = buffered.subarray(end + 4)
              const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : fixed(rest, headers)
              if (!body) return
              buffered = rest.subarray(body.used)
              waiting = undefined
              done({ status: Number(statusLine.split(' ')[1]), headers, body: body.text })
            }
            waiting = check
            socket.once('close', () => fail(new Error('the connection closed before an answer')))
            check()
          }),
        close: () => socket.destroy(),
      }),
    )
    socket.once('error', reject)
    const write = (bytes: Buffer | string) =>
      new Promise<void>((done, fail) => socket.write(bytes, (error) => (error ? fail(error) : done())))
  })
}

/** A body of Content-Length bytes, once all have arrived. */
function fixed(bytes: Buffer, headers: Record<string, string>) {
  const length = Number(headers['content-length'] ?? 0)
  return bytes.length < length
    ? undefined
    : { text: bytes.subarray(0, length).toString('utf8'), used: length }
}

/** A chunked body, once its last chunk has arrived. */
function dechunk(bytes: Buffer) {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) return undefined
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (bytes.length < lineEnd + 2 + size + 2) return undefined
    if (size === 0) return { text: Buffer.concat(parts).toString('utf8'), used: lineEnd + 4 }
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}

/** A chunk of a chunked body, framed. */
export const chunk = (bytes: Buffer) =>
  Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])

/** The resident memory of a process, in bytes (Linux). */
export type OwnServer = {
  child: ChildProcess
  /** The server's memory right after a full garbage collection in it (see collect-on-signal.ts). */
  memoryAfterCollection(): Promise<NodeJS.MemoryUsage>
  stop(): Promise<void>
}

/**
 * The production server entry (the built app, `node --import tsx server/index.ts`) in a process of its own, on
 * the embedded default with its own data folder: its memory and its connections are this test's alone.
 */
export async function startOwnServer(port: number): Promise<OwnServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'replypilot-hardening-'))
  const memoryReport = path.join(dataDir, 'memory.json')
  const preload = fileURLToPath(new URL('./collect-on-signal.ts', import.meta.url))
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', preload, 'server/index.ts'],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        EMBEDDED_DEFAULTS: 'true',
        PORT: String(port),
        DATA_DIR: dataDir,
        MEMORY_REPORT: memoryReport,
        LOG_LEVEL: 'warn',
        FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error('the server did not start in 120 s')
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    child,
    async memoryAfterCollection() {
      const asked = Date.now()
      child.kill('SIGUSR2')
      for (let waited = 0; waited < 10_000; waited += 50) {
        await new Promise((r) => setTimeout(r, 50))
        const written = existsSync(memoryReport) ? readFileSync(memoryReport, 'utf8') : ''
        const usage = written ? (JSON.parse(written) as NodeJS.MemoryUsage & { at: number }) : undefined
        if (usage && usage.at >= asked) return usage
      }
      throw new Error('the server did not report its memory after a collection')
    },
    // The data folder (the server's PGlite, a few hundred MB) goes with it.
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }).then(() => rmSync(dataDir, { recursive: true, force: true })),
  }
}
