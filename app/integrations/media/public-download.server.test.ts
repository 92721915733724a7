import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MediaError } from './download.server'
import { downloadPublicMedia, type PublicDownloadOptions } from './public-download.server'

const clip = Buffer.from('OggS and the rest of a voice note')
let server: Server
let root = ''
const served: string[] = []
beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(req.url ?? '')
    if (req.url === '/clip') return res.writeHead(200, { 'content-length': clip.byteLength }).end(clip)
    if (req.url === '/to-clip') return res.writeHead(302, { location: '/clip' }).end()
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end()
    if (req.url === '/streamed') {
      res.writeHead(200) // no Content-Length: the cap is found while reading
      return res.end(Buffer.alloc(4096))
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const options: PublicDownloadOptions = {
  platform: 'facebook',
  maxBytes: 1024,
  timeoutMs: 2000,
  tooLarge: 'too large',
  gone: 'gone',
  refused: 'refused',
}
const tests = { ...options, allowPrivateHosts: true }

async function reason(url: string, with_: PublicDownloadOptions) {
  const error = await downloadPublicMedia(url, with_).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MediaError)
  return error instanceof MediaError ? error.message : undefined
}

describe('downloadPublicMedia', () => {
  it("downloads a file and follows a redirect (the tests' allowance for 127.0.0.1 over http)", async () => {
    expect(await downloadPublicMedia(`${root}/clip`, tests)).toEqual(clip)
    expect(await downloadPublicMedia(`${root}/to-clip`, tests)).toEqual(clip)
  })

  it('a file that is gone, over the limit, or redirected without end: the reason, no retry', async () => {
    expect(await reason(`${root}/missing`, tests)).toBe('gone')
    expect(await reason(`${root}/streamed`, tests)).toBe('too large')
    const before = served.filter((u) => u === '/loop').length
    expect(await reason(`${root}/loop`, tests)).toBe('refused')
    expect(served.filter((u) => u === '/loop').length - before).toBe(4)
  })

  it('without the allowance: only https, never a private or local address, by name or by DNS', async () => {
    const before = served.length
    expect(await reason(`${root}/clip`, options)).toBe('refused') // http
    expect(await reason('https://127.0.0.1/clip', options)).toBe('refused')
    expect(await reason('https://10.0.0.5/clip', options)).toBe('refused')
    expect(await reason('https://[::1]/clip', options)).toBe('refused')
    expect(await reason('https://localhost/clip', options)).toBe('refused')
    expect(await reason('https://user:secret@cdn.example/clip', options)).toBe('refused')
    expect(await reason('ftp://cdn.example/clip', options)).toBe('refused')
    expect(served.length).toBe(before)

    const lookup = vi.fn(async (hostname: string) =>
      hostname === 'mixed.example'
        ? [
            { address: '157.240.1.1', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : [{ address: '169.254.169.254', family: 4 }],
    )
    expect(await reason('https://metadata.example/latest', { ...options, lookup })).toBe('refused')
    expect(await reason('https://mixed.example/clip', { ...options, lookup })).toBe('refused')
    expect(lookup).toHaveBeenCalledTimes(2)
  })
})
