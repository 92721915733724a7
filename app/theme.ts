import { createTheme, DEFAULT_THEME, type CSSVariablesResolver } from '@mantine/core'
import { TOOLTIP_DELAY_MS } from './lib/shared/constants'

export const theme = createTheme({
  primaryColor: 'indigo',
  // The default shade (6) fails WCAG AA contrast for white text on filled buttons.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  components: {
    Tooltip: { defaultProps: { openDelay: TOOLTIP_DELAY_MS, withArrow: true } },
    Select: { defaultProps: { maxDropdownHeight: '24rem' } },
  },
})

/** WCAG 2 AA: the contrast normal-size text needs. */
export const TEXT_CONTRAST = 4.5

type Rgb = [number, number, number]

const rgbOf = (hex: string): Rgb => {
  const value = Number.parseInt(hex.replace('#', ''), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}
const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`

/** WCAG 2's relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** WCAG 2's contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

/** The tint a light variant paints on white: the colour's shade at 10% (Mantine's `-light` variable). */
export function lightTint(shades: readonly string[], shade: number): string {
  const [r, g, b] = rgbOf(shades[shade]!)
  return hexOf([r, g, b].map((c) => 255 * 0.9 + c * 0.1) as Rgb)
}

/** The colour's darkest shade, darkened further (towards black, 5% at a time) until it reads on `background`. */
export function readableOn(background: string, shades: readonly string[]): string {
  const darkest = rgbOf(shades[9]!)
  for (let black = 0; black <= 1; black += 0.05) {
    const candidate = hexOf(darkest.map((c) => c * (1 - black)) as Rgb)
    if (contrast(candidate, background) >= TEXT_CONTRAST) return candidate
  }
  return '#000000'
}

/**
 * Text on a light variant (badges, alerts, light buttons) in every colour: Mantine writes it in the primary shade (7
 * here), which on its own 10% tint is 2-4:1 for orange, yellow, green, teal, cyan and red, under WCAG AA's 4.5:1.
 * Each colour gets its darkest shade instead, darkened where even that is not enough (orange, yellow, lime).
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const shade =
    typeof resolved.primaryShade === 'number' ? resolved.primaryShade : resolved.primaryShade.light
  const light: Record<string, string> = {}
  for (const [name, shades] of Object.entries({ ...DEFAULT_THEME.colors, ...resolved.colors })) {
    if (!shades || shades.length < 10) continue
    light[`--mantine-color-${name}-light-color`] = readableOn(lightTint(shades, shade), shades)
  }
  return { variables: {}, light, dark: {} }
}
