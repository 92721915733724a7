import { describe, expect, it } from 'vitest'
import { channelDisplayName, connectionStatus } from './channels'

describe('channelDisplayName', () => {
  it('uses the metadata name, else the spec fallback per type', () => {
    expect(channelDisplayName({ channelType: 'facebook_page', metadata: { name: 'Acme Page' } })).toBe(
      'Acme Page',
    )
    expect(channelDisplayName({ channelType: 'facebook_page', metadata: {} })).toBe('Facebook Page')
    expect(channelDisplayName({ channelType: 'telegram_bot', metadata: { username: 'acme_bot' } })).toBe(
      '@acme_bot',
    )
    expect(channelDisplayName({ channelType: 'telegram_bot', metadata: {} })).toBe('Telegram Bot')
    expect(channelDisplayName({ channelType: 'instagram_account', metadata: {} })).toBe('Instagram Account')
    expect(
      channelDisplayName({ channelType: 'whatsapp_number', metadata: { phoneNumber: '+1 555 0100' } }),
    ).toBe('+1 555 0100')
    expect(channelDisplayName({ channelType: 'whatsapp_number', metadata: {} })).toBe('WhatsApp')
    expect(channelDisplayName({ channelType: 'tiktok_account', metadata: {} })).toBe('TikTok Account')
  })
})

describe('connectionStatus', () => {
  it('maps channel status, and Telegram is always connected', () => {
    expect(connectionStatus({ platformName: 'facebook', status: 'active' })).toBe('connected')
    expect(connectionStatus({ platformName: 'facebook', status: 'error' })).toBe('error')
    expect(connectionStatus({ platformName: 'whatsapp', status: 'pending' })).toBe('pending')
    expect(connectionStatus({ platformName: 'whatsapp', status: 'disconnected' })).toBe('disconnected')
    expect(connectionStatus({ platformName: 'telegram', status: 'error' })).toBe('connected')
  })
})
