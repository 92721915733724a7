import { describe, expect, it } from 'vitest'
import { CONVERSATION_PAGE_SIZE } from './conversations'
import { listSearch, readListQuery } from './list-query'

const CHANNEL = '2b7d7a4e-8a4f-4a3c-9c55-1d1f6a0b2c3d'
const read = (search: string) => readListQuery(new URLSearchParams(search))
const page1 = { page: 1, pageSize: CONVERSATION_PAGE_SIZE }

describe('readListQuery (the inbox form)', () => {
  it('reads blank fields as "any", as the form sends them, and shows the open conversations by default', () => {
    expect(read('q=cake&channelId=&state=')).toEqual({ q: 'cake', status: 'open', ...page1 })
    expect(read('q=&channelId=&state=&status=')).toEqual({ status: 'open', ...page1 })
    expect(read('q=%20%20&state=paused&status=all')).toEqual({ state: 'paused', ...page1 })
  })

  it('keeps every filter the form filled in', () => {
    expect(
      read(`q=+order+42+&channelId=${CHANNEL}&state=needs_attention&status=resolved&assignee=me&page=3`),
    ).toEqual({
      q: 'order 42',
      channelId: CHANNEL,
      state: 'needs_attention',
      status: 'resolved',
      assignee: 'me',
      page: 3,
      pageSize: CONVERSATION_PAGE_SIZE,
    })
  })

  it('leaves out only the field that does not parse', () => {
    expect(read(`q=cake&channelId=not-an-id&state=sleeping&status=closed&assignee=a%20b&page=0`)).toEqual({
      q: 'cake',
      status: 'open',
      ...page1,
    })
    expect(read(`q=${'x'.repeat(201)}&channelId=${CHANNEL}`)).toEqual({
      channelId: CHANNEL,
      status: 'open',
      ...page1,
    })
  })
})

describe('listSearch', () => {
  it('writes what readListQuery reads back as the same filters', () => {
    for (const filters of [
      { status: 'open' as const },
      {},
      { status: 'resolved' as const, assignee: 'none', q: 'cake & tea' },
      { channelId: CHANNEL, state: 'paused' as const, assignee: 'uid-1', status: 'open' as const },
    ]) {
      const { page, pageSize, ...read_ } = read(listSearch(filters, 2).slice(1))
      expect(read_).toEqual(filters)
      expect([page, pageSize]).toEqual([2, CONVERSATION_PAGE_SIZE])
    }
    expect(listSearch({ status: 'open' })).toBe('')
    expect(listSearch({})).toBe('?status=all')
  })
})
