import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { PlatformError } from '~/integrations/platform-errors'
import { isBlockedAddress, isLocalHostName } from '~/integrations/web/address-policy'
import { MediaError, readDownload, type DownloadOptions } from './download.server'

export type PublicDownloadOptions = Omit<DownloadOptions, 'headers'> & {
  /** The reason stored when the address is refused (not https, not public, redirected too often). */
  refused: string
  /**
   * Tests only (their fakes listen on 127.0.0.1 over http): any address and http allowed. Refused outright when
   * NODE_ENV is production.
   */
  allowPrivateHosts?: boolean
  /** Tests: the name's addresses, instead of the system's resolver. */
  lookup?: (hostname: string) => Promise<LookupAddress[]>
}

const MAX_REDIRECTS = 3
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Downloads a file from an address a delivery named (Messenger's attachment URL), never one inside our network:
 * https only; a host that is, or resolves to, an address that is not public (address-policy.ts) is refused, and the
 * connection goes to the address that was checked, so a DNS answer that changes in between cannot move it. Every
 * redirect is checked the same way (three at most). No credentials are sent; limits and failures as downloadMedia's.
 */
export async function downloadPublicMedia(url: string, options: PublicDownloadOptions): Promise<Buffer> {
  if (options.allowPrivateHosts && process.env.NODE_ENV === 'production') {
    throw new Error('allowPrivateHosts is for tests only and is refused in production.')
  }
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let target = checkedUrl(url, undefined, options)
  for (let hop = 0; ; hop++) {
    const response = await get(target, options, signal, timeout)
    const location = response.headers.location
    if (REDIRECTS.has(response.statusCode ?? 0) && location) {
      response.destroy()
      if (hop >= MAX_REDIRECTS) throw new MediaError(options.refused)
      target = checkedUrl(location, target, options)
      continue
    }
    return readDownload(
      {
        status: response.statusCode ?? 0,
        declaredLength: Number(response.headers['content-length'] ?? Number.NaN),
        chunks: response,
        discard: () => void response.destroy(),
      },
      options,
      timeout,
    )
  }
}

/** The URL, if it may be fetched: https (or http for the tests), no credentials, not a private address by name. */
function checkedUrl(text: string, base: URL | undefined, options: PublicDownloadOptions): URL {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    throw new MediaError(options.refused)
  }
  const schemes = options.allowPrivateHosts ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol) || url.username || url.password) throw new MediaError(options.refused)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // A literal address is never looked up, so it is checked here; a name is checked by publicOnly when connecting.
  if (!options.allowPrivateHosts && (isLocalHostName(host) || (isIP(host) && isBlockedAddress(host)))) {
    throw new MediaError(options.refused)
  }
  return url
}

function get(url: URL, options: PublicDownloadOptions, signal: AbortSignal, timeout: AbortSignal) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      signal,
      lookup: options.allowPrivateHosts ? undefined : publicOnly(options),
    })
    request.on('response', resolve)
    request.on('error', (error) => {
      if (error instanceof MediaError) return reject(error)
      if (options.signal?.aborted) return reject(options.signal.reason)
      reject(new PlatformError(options.platform, timeout.aborted ? 'TIMEOUT_ERROR' : 'NETWORK_ERROR'))
    })
    request.end()
  })
}

/** The connection's lookup: every address of the name must be public, and it connects to one of those checked. */
function publicOnly(options: PublicDownloadOptions): LookupFunction {
  const resolve =
    options.lookup ??
    ((name: string) =>
      new Promise<LookupAddress[]>((done, fail) =>
        dnsLookup(name, { all: true }, (error, addresses) => (error ? fail(error) : done(addresses))),
      ))
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || addresses.some((entry) => isBlockedAddress(entry.address))) {
          return callback(new MediaError(options.refused), [])
        }
        if (lookupOptions.all) return callback(null, addresses)
        callback(null, addresses[0].address, addresses[0].family)
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    )
  }
}
