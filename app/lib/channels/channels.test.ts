import { describe, expect, it } from 'vitest'
import { channelActivity, channelDisplayName, connectionStatus } from './channels'

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

describe('channelActivity', () => {
  const live = { status: 'active', agentId: 'a1', agentEnabled: true, webhookSubscribed: true } as const
  it('says what the channel does now, the most pressing first', () => {
    expect(channelActivity(live, 'Bakery Helper')).toEqual({
      tone: 'answering',
      text: 'Answering with Bakery Helper',
    })
    expect(channelActivity({ ...live, agentId: null }, undefined).text).toBe(
      'Not answering yet — choose an agent',
    )
    expect(channelActivity({ ...live, agentEnabled: false }, 'Bakery Helper').text).toBe('Paused')
    expect(channelActivity({ ...live, webhookSubscribed: false }, 'Bakery Helper').text).toBe(
      'Not receiving messages yet',
    )
    expect(channelActivity({ ...live, status: 'error', agentId: null }, undefined)).toEqual({
      tone: 'attention',
      text: 'Needs attention: reconnect',
    })
  })
})
