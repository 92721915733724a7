import { describe, expect, it } from 'vitest'
import { isPublicHttpsUrl } from '~/utils/public-url.server'

describe('isPublicHttpsUrl', () => {
  it.each([
    'https://replypilot.example.com',
    'https://replypilot.example.com/',
    'https://bot.acme.io:8443/base',
    'https://abc123.ngrok-free.app',
    'https://8.8.8.8',
    'https://[2606:4700:4700::1111]',
    'https://Shop.Example.COM.',
  ])('%s is public https', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(true)
  })

  it.each([
    ['http://replypilot.example.com', 'plain http'],
    ['ftp://replypilot.example.com', 'another scheme'],
    ['not a url', 'not a URL'],
    ['https://localhost:3000', 'localhost'],
    ['https://app.localhost', 'a .localhost name'],
    ['https://127.0.0.1', 'IPv4 loopback'],
    ['https://127.8.9.10', 'the loopback range'],
    ['https://[::1]:3000', 'IPv6 loopback'],
    ['https://10.1.2.3', '10/8'],
    ['https://172.16.0.1', '172.16/12'],
    ['https://172.31.255.255', 'the end of 172.16/12'],
    ['https://192.168.1.20', '192.168/16'],
    ['https://169.254.1.1', 'IPv4 link-local'],
    ['https://100.64.0.1', 'carrier-grade NAT'],
    ['https://0.0.0.0', 'the unspecified address'],
    ['https://[fe80::1]', 'IPv6 link-local'],
    ['https://[fd12:3456::1]', 'IPv6 unique local'],
    ['https://[::ffff:192.168.0.1]', 'an IPv4-mapped private address'],
    ['https://my-laptop.local', '.local (mDNS)'],
    ['https://shop.test', '.test'],
    ['https://router.home.arpa', '.home.arpa'],
    ['https://db.internal', '.internal'],
    ['https://intranet', 'a name without a dot'],
  ])('%s is not (%s)', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(false)
  })

  it('keeps the public addresses just outside the private ranges', () => {
    expect(isPublicHttpsUrl('https://172.32.0.1')).toBe(true)
    expect(isPublicHttpsUrl('https://11.0.0.1')).toBe(true)
    expect(isPublicHttpsUrl('https://192.169.0.1')).toBe(true)
  })
})
