import { describe, expect, it } from 'vitest'
import { CONVERSATION_PAGE_SIZE } from './conversations'
import { readListQuery } from './list-query'

const CHANNEL = '2b7d7a4e-8a4f-4a3c-9c55-1d1f6a0b2c3d'
const read = (search: string) => readListQuery(new URLSearchParams(search))

describe('readListQuery (the inbox form)', () => {
  it('reads blank fields as "any", as the form sends them', () => {
    expect(read('q=cake&channelId=&state=')).toEqual({ q: 'cake', page: 1, pageSize: CONVERSATION_PAGE_SIZE })
    expect(read('q=&channelId=&state=')).toEqual({ page: 1, pageSize: CONVERSATION_PAGE_SIZE })
    expect(read('q=%20%20&state=paused')).toEqual({
      state: 'paused',
      page: 1,
      pageSize: CONVERSATION_PAGE_SIZE,
    })
  })

  it('keeps every filter the form filled in', () => {
    expect(read(`q=+order+42+&channelId=${CHANNEL}&state=needs_attention&page=3`)).toEqual({
      q: 'order 42',
      channelId: CHANNEL,
      state: 'needs_attention',
      page: 3,
      pageSize: CONVERSATION_PAGE_SIZE,
    })
  })

  it('leaves out only the field that does not parse', () => {
    expect(read(`q=cake&channelId=not-an-id&state=sleeping&page=0`)).toEqual({
      q: 'cake',
      page: 1,
      pageSize: CONVERSATION_PAGE_SIZE,
    })
    expect(read(`q=${'x'.repeat(201)}&channelId=${CHANNEL}`)).toEqual({
      channelId: CHANNEL,
      page: 1,
      pageSize: CONVERSATION_PAGE_SIZE,
    })
  })
})
