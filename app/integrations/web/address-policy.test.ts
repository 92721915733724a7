import { describe, expect, it } from 'vitest'
import { isBlockedAddress, isLocalHostName } from '~/integrations/web/address-policy'

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'not-an-address',
    '1.2.3',
  ])('refuses %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false)
    },
  )

  it('knows localhost names', () => {
    expect(isLocalHostName('localhost')).toBe(true)
    expect(isLocalHostName('LOCALHOST.')).toBe(true)
    expect(isLocalHostName('app.localhost')).toBe(true)
    expect(isLocalHostName('localhost.example.com')).toBe(false)
  })
})
