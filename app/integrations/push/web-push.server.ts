import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { Agent } from 'node:https'
import { isIP } from 'node:net'
import webpush from 'web-push'
import { isBlockedAddress, isLocalHostName } from '~/integrations/web/address-policy'

export type VapidKeys = { publicKey: string; privateKey: string; subject: string }
export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } }

/** The push service's refusal: `gone` (404, 410) means the browser unsubscribed, and the subscription goes. */
export class PushError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | undefined,
  ) {
    super(message)
    this.name = 'PushError'
  }
  get gone() {
    return this.statusCode === 404 || this.statusCode === 410
  }
}

export type PushSender = {
  send(target: PushTarget, payload: string, options: { ttlSeconds: number; topic?: string }): Promise<void>
}

/**
 * Web Push through the `web-push` library (VAPID, RFC 8291 encryption). The endpoint comes from a browser, so a
 * member could name any address: a host that is or resolves to a private address is refused (the connection goes
 * to the address that was checked), unless `allowPrivateHosts` (tests, whose fake push service is on 127.0.0.1).
 * `ca`: certificates to trust besides the system's (the tests' self-signed push service).
 */
export function createPushSender({
  vapid,
  allowPrivateHosts = false,
  ca,
}: {
  vapid: VapidKeys
  allowPrivateHosts?: boolean
  ca?: string
}): PushSender {
  const agent = new Agent({
    keepAlive: true,
    ca: ca ? [ca] : undefined,
    lookup: allowPrivateHosts ? undefined : publicOnlyLookup,
  })
  return {
    async send(target, payload, { ttlSeconds, topic }) {
      const host = new URL(target.endpoint).hostname.replace(/^\[|\]$/g, '')
      if (!allowPrivateHosts && (isLocalHostName(host) || (isIP(host) && isBlockedAddress(host)))) {
        throw new PushError('The push address is not a public address', undefined)
      }
      try {
        await webpush.sendNotification(target, payload, {
          vapidDetails: vapid,
          TTL: ttlSeconds,
          topic,
          urgency: 'high',
          agent,
          timeout: 10_000,
        })
      } catch (error) {
        const statusCode = (error as { statusCode?: number }).statusCode
        throw new PushError(error instanceof Error ? error.message : String(error), statusCode)
      }
    },
  }
}

/** `lookup` for the agent: every address of the name must be public, and the connection uses what was checked. */
function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address))) {
      return callback(new Error('The push address is not a public address'), [])
    }
    if (options.all) return callback(null, addresses)
    callback(null, addresses[0].address, addresses[0].family)
  })
}
