import { isIP } from 'node:net'

/**
 * Names that never reach this machine from the internet: special-use and private-use domains (RFC 6761, RFC 6762,
 * RFC 8375, RFC 9476; `.internal` and `.lan`/`.home` as networks use them). Telegram cannot call a webhook there.
 */
const PRIVATE_SUFFIXES = [
  'localhost',
  'local',
  'test',
  'example',
  'invalid',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
  'alt',
  'onion',
]

/** IPv4 ranges that are not routable on the internet: [first octets, prefix length]. */
const PRIVATE_V4: [number[], number][] = [
  [[0], 8], // "this network"
  [[10], 8],
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local
  [[172, 16], 12],
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 168], 16],
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, and the broadcast address
]

function ipv4Number(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)
}

function isPrivateIpv4(address: string): boolean {
  const value = ipv4Number(address)
  return PRIVATE_V4.some(([octets, bits]) => {
    const base = ipv4Number([...octets, 0, 0, 0, 0].slice(0, 4).join('.'))
    const size = 2 ** (32 - bits)
    return value >= base && value < base + size
  })
}

function isPrivateIpv6(address: string): boolean {
  const a = address.toLowerCase()
  if (a === '::' || a === '::1') return true // unspecified, loopback
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)
  if (mapped) return isPrivateIpv4(mapped[1])
  const first = parseInt(a.split(':')[0] || '0', 16)
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    a.startsWith('2001:db8:') || // documentation
    a.startsWith('::ffff:') // other IPv4-mapped forms
  )
}

/**
 * Whether Telegram can deliver webhooks to this base URL: https, and a host that the internet can reach, i.e. not
 * localhost, a loopback, private, link-local or otherwise reserved address, nor a special-use name (`.local`,
 * `.test`, ...), nor a bare name without a dot. It cannot know about a firewall; it only rules out what is sure
 * not to work.
 */
export function isPublicHttpsUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.protocol !== 'https:') return false
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (!host) return false
  const ip = isIP(host)
  if (ip === 4) return !isPrivateIpv4(host)
  if (ip === 6) return !isPrivateIpv6(host)
  if (!host.includes('.')) return false
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))
}
