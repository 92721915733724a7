import { createTheme } from '@mantine/core'
import { TOOLTIP_DELAY_MS } from '~/lib/constants'

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
