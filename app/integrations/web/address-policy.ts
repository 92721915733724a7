import { isIP } from 'node:net'

/**
 * Which IP addresses a server-side fetch may connect to: public unicast only. Refused: loopback, private, shared
 * (CGNAT), link-local (with the cloud metadata address 169.254.169.254), "this network", multicast, reserved,
 * documentation and benchmark ranges; in IPv6 everything outside 2000::/3 (so ::1, fc00::/7, fe80::/10, ff00::/8,
 * NAT64) and inside it Teredo, 6to4 and documentation; IPv4-mapped and -compatible IPv6 addresses are judged by
 * their IPv4 address. Pure, so it is tested on its own.
 */

const BLOCKED_V4: [number, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [ipv4ToNumber(String(base)) ?? 0, Number(bits)])

function ipv4ToNumber(address: string): number | undefined {
  const parts = address.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined
    value = value * 256 + Number(part)
  }
  return value
}

function isBlockedV4(address: string) {
  const value = ipv4ToNumber(address)
  if (value === undefined) return true
  return BLOCKED_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits)
    return value >= base && value < base + size
  })
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail and a zone index are handled). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '').toLowerCase()
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)
  if (v4) {
    const value = ipv4ToNumber(v4[1])
    if (value === undefined) return undefined
    text = `${text.slice(0, v4.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined
  return groups.map((group) => parseInt(group, 16))
}

function isBlockedV6(address: string) {
  const groups = ipv6Groups(address)
  if (!groups) return true
  const [a, b] = groups
  const v4Tail = `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`
  const zeros = (count: number) => groups.slice(0, count).every((group) => group === 0)
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address decides; :: and ::1 are refused by it.
  if (zeros(5) && groups[5] === 0xffff) return isBlockedV4(v4Tail)
  if (zeros(6)) return true
  if ((a & 0xe000) !== 0x2000) return true
  if (a === 0x2001 && (b === 0x0db8 || b === 0)) return true
  if (a === 0x2002) return true
  return false
}

/** True when a fetch must not connect to this address (not public, or not an IP address at all). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''))
  if (family === 4) return isBlockedV4(address)
  if (family === 6) return isBlockedV6(address)
  return true
}

/** Host names that mean this machine whatever DNS says. */
export function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain'
}
