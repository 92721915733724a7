// @vitest-environment jsdom
import { useLoaderData } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { INBOX_LIVE } from '~/lib/conversations/conversations'
import { useInboxEvents, type InboxEventsOptions } from './use-inbox-events'

/** EventSource as the browser has it, driven by the test: it opens, is told events, fails. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  static all: FakeEventSource[] = []
  readyState = FakeEventSource.CONNECTING
  constructor(readonly url: string) {
    super()
    FakeEventSource.all.push(this)
  }
  close() {
    this.readyState = FakeEventSource.CLOSED
  }
  open() {
    this.readyState = FakeEventSource.OPEN
    this.dispatchEvent(new Event('open'))
  }
  tell(type: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }))
  }
  /** An error status: EventSource gives up. */
  fail() {
    this.readyState = FakeEventSource.CLOSED
    this.dispatchEvent(new Event('error'))
  }
}
const latestSource = () => {
  const source = FakeEventSource.all.at(-1)
  if (!source) throw new Error('no EventSource opened')
  return source
}
/**
 * The stream, once the hook's effect has opened it: the page's text can be on screen before React runs its
 * effects (a loaded machine showed it), so it is waited for, not read at once.
 */
const openedSource = () => waitFor(latestSource)

let loads = 0
let release: (() => void) | undefined
/** A loader that counts its runs; with `hold`, each run waits until released (a revalidation in flight). */
function renderPage(options: InboxEventsOptions, { hold = false } = {}) {
  function Page() {
    const data = useLoaderData<{ loads: number }>()
    useInboxEvents(options)
    return <p>loads {data.loads}</p>
  }
  const Stub = createRemixStub([
    {
      path: '/conversations',
      Component: Page,
      loader: async () => {
        loads += 1
        if (hold && loads > 1) await new Promise<void>((resolve) => (release = resolve))
        return { loads }
      },
    },
  ])
  return render(<Stub initialEntries={['/conversations']} />)
}

beforeEach(() => {
  loads = 0
  release = undefined
  FakeEventSource.all = []
  vi.stubGlobal('EventSource', FakeEventSource)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('useInboxEvents', () => {
  it("opens one stream on the server's path, reloads the data on a change, and closes on unmount", async () => {
    const onEvent = vi.fn()
    const page = renderPage({ onEvent })
    await screen.findByText('loads 1')
    const source = await openedSource()
    expect(FakeEventSource.all.map((s) => s.url)).toEqual([INBOX_LIVE.path])
    act(() => {
      source.open()
      source.tell('conversation', { conversationId: 'c-1' })
    })
    await screen.findByText('loads 2')
    expect(onEvent).toHaveBeenCalledWith('c-1')
    page.unmount()
    expect(source.readyState).toBe(FakeEventSource.CLOSED)
  })

  it('reloads at most once at a time: a burst during a reload makes one more reload after it', async () => {
    renderPage({}, { hold: true })
    await screen.findByText('loads 1')
    const source = await openedSource()
    act(() => source.open())
    act(() => source.tell('conversation', { conversationId: 'c-1' }))
    await waitFor(() => expect(loads).toBe(2))
    act(() => {
      for (let i = 0; i < 5; i++) source.tell('conversation', { conversationId: `c-${i}` })
    })
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs + 100))
    expect(loads).toBe(2)
    act(() => release?.())
    await waitFor(() => expect(loads).toBe(3), { timeout: 2_000 })
    act(() => release?.())
    await screen.findByText('loads 3')
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs + 100))
    expect(loads).toBe(3)
  })

  it(`reloads at most once per ${INBOX_LIVE.revalidateEveryMs} ms under a steady stream of changes`, async () => {
    renderPage({})
    await screen.findByText('loads 1')
    const source = await openedSource()
    act(() => source.open())
    const started = Date.now()
    for (let i = 0; i < 20; i++) {
      act(() => source.tell('conversation', { conversationId: `c-${i}` }))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const elapsed = Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs + 100))
    const reloads = loads - 1
    expect(reloads).toBeGreaterThanOrEqual(2)
    expect(reloads).toBeLessThanOrEqual(Math.ceil(elapsed / INBOX_LIVE.revalidateEveryMs) + 1)
  })

  it("on a conversation's page, reloads for that conversation only", async () => {
    const onEvent = vi.fn()
    renderPage({ conversationId: 'mine', onEvent })
    await screen.findByText('loads 1')
    const source = await openedSource()
    act(() => source.open())
    await screen.findByText('loads 2')
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs))
    act(() => source.tell('conversation', { conversationId: 'theirs' }))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(loads).toBe(2)
    act(() => source.tell('conversation', { conversationId: 'mine' }))
    await screen.findByText('loads 3')
    expect(onEvent).toHaveBeenCalledTimes(1)
    expect(onEvent).toHaveBeenCalledWith('mine')
  })

  it('reloads once when the stream opens: what changed before it opened was not told', async () => {
    renderPage({})
    await screen.findByText('loads 1')
    const source = await openedSource()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(loads).toBe(1)
    act(() => source.open())
    await screen.findByText('loads 2')
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs + 100))
    expect(loads).toBe(2)
  })

  it('reloads after `resync` and after a reconnection, when changes may have been missed', async () => {
    renderPage({ conversationId: 'mine' })
    await screen.findByText('loads 1')
    const source = await openedSource()
    act(() => {
      source.open()
      source.tell('resync', {})
    })
    await screen.findByText('loads 2')
    await new Promise((resolve) => setTimeout(resolve, INBOX_LIVE.revalidateEveryMs))
    act(() => source.open())
    await screen.findByText('loads 3')
  })

  it('opens the stream again when the page shows another organization (a switch)', async () => {
    function Page() {
      const [organizationId, setOrganizationId] = useState('org-1')
      useInboxEvents({ organizationId })
      return <button onClick={() => setOrganizationId('org-2')}>{organizationId}</button>
    }
    const Stub = createRemixStub([{ path: '/conversations', Component: Page }])
    render(<Stub initialEntries={['/conversations']} />)
    fireEvent.click(await screen.findByRole('button', { name: 'org-1' }))
    await screen.findByRole('button', { name: 'org-2' })
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(2))
    expect(FakeEventSource.all[0].readyState).toBe(FakeEventSource.CLOSED)
    expect(FakeEventSource.all[1].readyState).toBe(FakeEventSource.CONNECTING)
  })

  it('opens a new stream later when the server refused this one (EventSource gives up by itself)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      renderPage({})
      await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(1))
      act(() => latestSource().fail())
      expect(FakeEventSource.all).toHaveLength(1)
      await act(() => vi.advanceTimersByTimeAsync(5_000))
      expect(FakeEventSource.all).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
