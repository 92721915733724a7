import { describe, expect, it } from 'vitest'
import { estimateTokens, splitMessage } from './reply-pipeline'

describe('splitMessage', () => {
  it('leaves a text within the limit whole (trimmed), and an empty one as no part', () => {
    expect(splitMessage('  hello world \n', 20)).toEqual(['hello world'])
    expect(splitMessage('x'.repeat(20), 20)).toEqual(['x'.repeat(20)])
    expect(splitMessage('   ', 20)).toEqual([])
  })

  it('breaks at the last whitespace within the limit, dropping it', () => {
    expect(splitMessage('aaaa bbbb cccc dddd', 10)).toEqual(['aaaa bbbb', 'cccc dddd'])
    // A word ending exactly at the limit stays with its part.
    expect(splitMessage('aaaa bbbbb cccc', 10)).toEqual(['aaaa bbbbb', 'cccc'])
  })

  it('prefers a paragraph or line break in the second half of the part', () => {
    const text = `${'a'.repeat(30)}\n\n${'b b b b b'}\n${'c'.repeat(5)} dd`
    expect(splitMessage(text, 45)).toEqual(['a'.repeat(30), `b b b b b\n${'c'.repeat(5)} dd`])
    // A break too early (in the first half) would waste the part: the last space wins.
    expect(splitMessage(`ab\n${'c '.repeat(10)}`, 12)).toEqual(['ab\nc c c c c', 'c c c c c'])
  })

  it('cuts a word longer than the limit, never inside a surrogate pair', () => {
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)])
    const emoji = '😀'.repeat(6) // 12 UTF-16 units
    const parts = splitMessage(emoji, 5)
    expect(parts.join('')).toBe(emoji)
    expect(parts.every((p) => p.length <= 5 && !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p))).toBe(true)
  })

  it('never makes a part over the limit, and loses only whitespace at the breaks', () => {
    const words = Array.from({ length: 3000 }, (_, i) => 'w'.repeat(((i * 7) % 13) + 1)).join(' ')
    const parts = splitMessage(words, 4096)
    expect(parts.every((p) => p.length <= 4096 && p.length > 0)).toBe(true)
    expect(parts.join(' ')).toBe(words)
  })
})

it('estimates about four characters a token', () => {
  expect(estimateTokens('')).toBe(0)
  expect(estimateTokens('abcd')).toBe(1)
  expect(estimateTokens('abcde')).toBe(2)
})
