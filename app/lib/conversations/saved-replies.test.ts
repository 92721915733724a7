import { describe, expect, it } from 'vitest'
import {
  fillSavedReply,
  firstNameOf,
  SAVED_REPLY_TEXTS,
  savedReplySchema,
  searchSavedReplies,
} from './saved-replies'

describe('saved replies', () => {
  it("fill the customer's first name in, or leave the placeholder out with the space before it", () => {
    expect(fillSavedReply('Hi {{first_name}}, thanks!', 'Ann Smith')).toBe('Hi Ann, thanks!')
    expect(fillSavedReply('Hi {{first_name}}, thanks!', '@annie')).toBe('Hi annie, thanks!')
    expect(fillSavedReply('Hi {{first_name}}, thanks {{first_name}}!', null)).toBe('Hi, thanks!')
    expect(firstNameOf('   ')).toBeNull()
  })

  it('find replies by shortcut first, then by their words', () => {
    const replies = [
      { id: '1', shortcut: 'hours', text: 'We open at nine.' },
      { id: '2', shortcut: 'thanks', text: 'Thank you for your order!' },
      { id: '3', shortcut: 'order-status', text: 'Your order is on its way.' },
    ]
    expect(searchSavedReplies(replies, 'or').map((r) => r.shortcut)).toEqual(['order-status', 'thanks'])
    expect(searchSavedReplies(replies, '').map((r) => r.shortcut)).toEqual([
      'hours',
      'order-status',
      'thanks',
    ])
    expect(searchSavedReplies(replies, 'nothing')).toEqual([])
  })

  it('take a shortcut with or without its slash, and refuse a bad one or a text over 4,096 characters', () => {
    expect(savedReplySchema.parse({ shortcut: ' /Thanks ', text: ' Hi ' })).toEqual({
      shortcut: 'thanks',
      text: 'Hi',
    })
    const errors = (input: unknown) => savedReplySchema.safeParse(input).error?.issues.map((i) => i.message)
    expect(errors({ shortcut: 'two words', text: 'x' })).toEqual([SAVED_REPLY_TEXTS.shortcutInvalid])
    expect(errors({ shortcut: 'a'.repeat(33), text: 'x' })).toEqual([SAVED_REPLY_TEXTS.shortcutInvalid])
    expect(errors({ shortcut: 'ok', text: 'x'.repeat(4097) })).toEqual([SAVED_REPLY_TEXTS.textTooLong])
    expect(errors({ shortcut: 'ok', text: '  ' })).toEqual([SAVED_REPLY_TEXTS.textRequired])
  })
})
