import { describe, expect, it } from 'vitest'
import {
  PASSAGE_HARD_MAX_WORDS,
  PASSAGE_TARGET_WORDS,
  cleanInline,
  splitIntoPassages,
} from '~/services/knowledge/passages'

const words = (text: string) => text.split(/\s+/).filter(Boolean).length

function sentence(seed: number, length = 12) {
  const vocabulary = [
    'order',
    'refund',
    'parcel',
    'courier',
    'warranty',
    'invoice',
    'size',
    'colour',
    'store',
  ]
  const out: string[] = []
  for (let i = 0; i < length; i++) out.push(vocabulary[(seed * 7 + i * 3) % vocabulary.length])
  out[0] = out[0][0].toUpperCase() + out[0].slice(1)
  return `${out.join(' ')}.`
}

function paragraph(seed: number, sentences: number) {
  return Array.from({ length: sentences }, (_, i) => sentence(seed + i)).join(' ')
}

describe('splitIntoPassages: Markdown headings', () => {
  it('gives each section its heading path, without the source title', () => {
    const text = [
      '# Shop help',
      'Welcome text for the help pages.',
      '## Returns',
      'You can return anything within 30 days.',
      '### Damaged items',
      'Send us a photo of the damage.',
      '## Delivery',
      'We ship in two days.',
      'Setext section',
      '--------------',
      'Under a setext heading.',
    ].join('\n')
    const passages = splitIntoPassages({ title: 'Shop help', text, format: 'markdown' })
    expect(passages).toEqual([
      { headingPath: [], text: 'Welcome text for the help pages.' },
      { headingPath: ['Returns'], text: 'You can return anything within 30 days.' },
      { headingPath: ['Returns', 'Damaged items'], text: 'Send us a photo of the damage.' },
      { headingPath: ['Delivery'], text: 'We ship in two days.' },
      { headingPath: ['Setext section'], text: 'Under a setext heading.' },
    ])
  })

  it('keeps a first heading that is not the title, and closes deeper levels at a shallower heading', () => {
    const text =
      'Intro\n=====\n\nHello.\n\n#### Deep\nDeep text.\n\n## Back up\nUp text.\n\n## Empty\n\n### Child\nChild text.'
    const passages = splitIntoPassages({ title: 'Something else', text, format: 'markdown' })
    expect(passages.map((p) => p.headingPath)).toEqual([
      ['Intro'],
      ['Intro', 'Deep'],
      ['Intro', 'Back up'],
      ['Intro', 'Empty', 'Child'],
    ])
  })

  it('does not see headings inside code fences, and keeps the code as text', () => {
    const text = '## Setup\n\n```bash\n# not a heading\nnpm install\n```\n\nDone.'
    const [passage] = splitIntoPassages({ title: 't', text, format: 'markdown' })
    expect(passage).toEqual({ headingPath: ['Setup'], text: '# not a heading\nnpm install\n\nDone.' })
  })
})

describe('splitIntoPassages: Markdown cleanup', () => {
  it('removes link, image, emphasis and block syntax', () => {
    const text = [
      'See [our policy](https://example.com/policy "Policy") and ![a logo](logo.png) **now**, _please_.',
      'Keep snake_case_names and 2*3*4 as they are; `code *here*` stays literal; ~~old~~ &amp; new.',
      '',
      '> Quoted **advice**.',
      '',
      '* one',
      '* two [link][ref]',
      '',
      '[ref]: https://example.com',
      '',
      '---',
      '',
      'Auto <https://example.com/x> and <b>html</b>.',
    ].join('\n')
    const [passage] = splitIntoPassages({ title: 't', text, format: 'markdown' })
    expect(passage.text).toBe(
      [
        'See our policy and now, please. Keep snake_case_names and 2*3*4 as they are; code *here* stays literal; old & new.',
        '',
        'Quoted advice.',
        '',
        '- one',
        '- two link',
        '',
        'Auto https://example.com/x and html .',
      ].join('\n'),
    )
  })

  it('turns table rows into "header: cell" lines', () => {
    const text = '## Prices\n\n| Plan | Price |\n|---|---:|\n| Basic | $5 |\n| **Pro** | $10 |\n'
    expect(splitIntoPassages({ title: 't', text, format: 'markdown' })).toEqual([
      { headingPath: ['Prices'], text: 'Plan: Basic; Price: $5\nPlan: Pro; Price: $10' },
    ])
  })

  it('cleans inline text on its own', () => {
    expect(cleanInline('[a](b) ![c](d) **e** \\*f\\*')).toBe('a  e *f*')
  })
})

describe('splitIntoPassages: plain text', () => {
  it('joins wrapped lines, keeps bullets, sees no headings', () => {
    const text = 'RETURNS\nYou can return\nanything.\n\n\n- first\n- second\r\n\r\n# not markdown **here**'
    expect(splitIntoPassages({ title: 't', text, format: 'plain' })).toEqual([
      {
        headingPath: [],
        text: 'RETURNS You can return anything.\n\n- first\n- second\n\n# not markdown **here**',
      },
    ])
  })

  it('never returns empty passages', () => {
    expect(splitIntoPassages({ title: 't', text: ' \n\n\t\n', format: 'plain' })).toEqual([])
    expect(
      splitIntoPassages({ title: 't', text: '# A\n\n## B\n\n![x](y)\n\n---', format: 'markdown' }),
    ).toEqual([])
  })
})

describe('splitIntoPassages: sizes', () => {
  it('cuts a generated 200,000-character document within bounds, in linear time and deterministically', () => {
    const parts: string[] = []
    let seed = 0
    while (parts.join('\n\n').length < 200_000) {
      seed++
      if (seed % 9 === 0) parts.push(`## Section ${seed}`)
      if (seed % 23 === 0) parts.push(`### Sub ${seed}`)
      // Paragraphs of 24 to 300 words, a run-on "sentence" of 900 words now and then.
      if (seed % 31 === 0) parts.push(Array.from({ length: 900 }, (_, i) => `word${i}`).join(' '))
      else parts.push(paragraph(seed, 2 + (seed % 24)))
    }
    const text = parts.join('\n\n')
    expect(text.length).toBeGreaterThanOrEqual(200_000)

    splitIntoPassages({ title: 'Big', text, format: 'markdown' })
    const started = performance.now()
    const passages = splitIntoPassages({ title: 'Big', text, format: 'markdown' })
    const elapsed = performance.now() - started
    // A bound for a quadratic split (seconds), not a measurement: it takes a few ms; bench:knowledge measures it.
    expect(elapsed).toBeLessThan(2_000)

    expect(passages.length).toBeGreaterThan(50)
    for (const passage of passages) {
      expect(passage.text.trim()).not.toBe('')
      expect(words(passage.text)).toBeLessThanOrEqual(PASSAGE_HARD_MAX_WORDS)
    }
    const sizes = passages.map((p) => words(p.text))
    const median = [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)]
    expect(median).toBeGreaterThanOrEqual(PASSAGE_TARGET_WORDS)
    // No word lost or cut in half.
    const sourceWords = text
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join(' ')
      .split(/\s+/)
      .filter(Boolean)
    expect(passages.flatMap((p) => p.text.split(/\s+/).filter(Boolean))).toEqual(sourceWords)
    expect(splitIntoPassages({ title: 'Big', text, format: 'markdown' })).toEqual(passages)
  })

  it('cuts a long plain paragraph at sentence ends', () => {
    const text = paragraph(1, 60)
    const passages = splitIntoPassages({ title: 't', text, format: 'plain' })
    expect(passages.length).toBeGreaterThan(1)
    for (const passage of passages) {
      expect(passage.text).toMatch(/\.$/)
      expect(words(passage.text)).toBeLessThanOrEqual(PASSAGE_HARD_MAX_WORDS)
    }
  })

  it('keeps a short FAQ section as its own passage', () => {
    const text = '## Do you ship abroad?\nYes, to the EU.\n\n## Can I pay by card?\nYes.'
    expect(splitIntoPassages({ title: 'FAQ', text, format: 'markdown' })).toHaveLength(2)
  })
})
