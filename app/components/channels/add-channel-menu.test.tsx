// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core'
import { createRemixStub } from '@remix-run/testing'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { MetaClientConfig } from '~/lib/channels/facebook'
import { AddChannelMenu } from './add-channel-menu'
import type { MetaConnect } from './use-meta-connect'

const CONFIGURED: MetaClientConfig = {
  configured: true,
  appId: '42',
  sdkUrl: 'https://sdk.example/sdk.js',
  whatsappConfigId: 'cfg',
  messageOrigins: ['https://www.facebook.com'],
}

beforeAll(() => {
  // What Mantine's menu needs of a browser that jsdom lacks.
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) satisfies MediaQueryList
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
})
afterEach(cleanup)

function renderMenu(meta: MetaClientConfig, busy: MetaConnect['busy'] = null) {
  const connect = vi.fn()
  const prepare = vi.fn()
  const Stub = createRemixStub([
    {
      path: '/channels',
      Component: () => (
        <MantineProvider env="test">
          <AddChannelMenu meta={{ meta, busy, connect, prepare }} />
        </MantineProvider>
      ),
    },
  ])
  render(<Stub initialEntries={['/channels']} />)
  fireEvent.click(screen.getByRole('button', { name: busy ? 'Connecting...' : 'Add Channel' }))
  return { connect, prepare }
}

const item = (name: string) => screen.getByRole('menuitem', { name: new RegExp(`^${name}`) })

describe('AddChannelMenu', () => {
  it('offers Facebook Page and WhatsApp Business Account when the Meta app is configured, and starts the SDK', () => {
    const { connect, prepare } = renderMenu(CONFIGURED)
    expect(prepare).toHaveBeenCalled()
    expect(screen.getAllByRole('menuitem').map((entry) => entry.textContent)).toEqual([
      'Facebook Page',
      'Telegram Bot',
      'WhatsApp Business Account',
    ])
    fireEvent.click(item('WhatsApp Business Account'))
    expect(connect).toHaveBeenCalledWith('whatsapp')
  })

  it('says the server must be set up, naming none of its settings, when Meta is not configured', () => {
    const { connect } = renderMenu({ ...CONFIGURED, configured: false, appId: '', whatsappConfigId: null })
    expect(item('Facebook Page').hasAttribute('disabled')).toBe(true)
    expect(item('Facebook Page').textContent).toContain('Not set up on this server yet')
    expect(item('Facebook Page').textContent).not.toMatch(/META_|WHATSAPP_/)
    expect(item('WhatsApp Business Account').hasAttribute('disabled')).toBe(true)
    expect(item('WhatsApp Business Account').textContent).toContain('Not set up on this server yet')
    expect(item('Telegram Bot').hasAttribute('disabled')).toBe(false)
    fireEvent.click(item('Facebook Page'))
    expect(connect).not.toHaveBeenCalled()
  })

  it('needs the Embedded Signup configuration for WhatsApp even when the app is configured', () => {
    renderMenu({ ...CONFIGURED, whatsappConfigId: null })
    expect(item('Facebook Page').hasAttribute('disabled')).toBe(false)
    expect(item('WhatsApp Business Account').hasAttribute('disabled')).toBe(true)
    expect(item('WhatsApp Business Account').textContent).toContain('Not set up on this server yet')
  })

  it('says "Connecting..." and takes no second connect while one runs', () => {
    renderMenu(CONFIGURED, 'facebook')
    expect(item('Facebook Page').textContent).toBe('Facebook Page: Connecting...')
    expect(item('Facebook Page').getAttribute('aria-busy')).toBe('true')
    expect(item('WhatsApp Business Account').hasAttribute('disabled')).toBe(true)
  })
})
