import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { contrast, cssVariablesResolver, lightTint, readableOn, TEXT_CONTRAST, theme } from './theme'

const resolved = mergeMantineTheme(DEFAULT_THEME, theme)

describe('light variants', () => {
  it('write every colour readably on its own tint (WCAG AA)', () => {
    const { light } = cssVariablesResolver(resolved)
    const names = Object.keys(resolved.colors)
    expect(names.length).toBeGreaterThanOrEqual(14)
    for (const name of names) {
      const text = light[`--mantine-color-${name}-light-color`]
      expect(text, name).toMatch(/^#[0-9a-f]{6}$/)
      const tint = lightTint(resolved.colors[name]!, 7)
      expect(contrast(text!, tint), name).toBeGreaterThanOrEqual(TEXT_CONTRAST)
      // Mantine's own choice, the primary shade, is what fails for most of them.
      if (['orange', 'yellow', 'green', 'teal'].includes(name)) {
        expect(contrast(resolved.colors[name]![7], tint), name).toBeLessThan(TEXT_CONTRAST)
      }
    }
  })

  it('keeps a colour its darkest shade where that reads, and darkens it where it does not', () => {
    const red = resolved.colors.red
    expect(readableOn(lightTint(red, 7), red)).toBe(red[9].toLowerCase())
    const yellow = resolved.colors.yellow
    expect(readableOn(lightTint(yellow, 7), yellow)).not.toBe(yellow[9].toLowerCase())
  })

  it('measures contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
    expect(contrast('#ffffff', '#ffffff')).toBe(1)
  })
})
