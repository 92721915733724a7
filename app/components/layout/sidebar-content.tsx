import { Box, Text, Tooltip, VisuallyHidden } from '@mantine/core'
import { NavLink } from '@remix-run/react'
import logoUrl from '~/assets/logo.svg'
import type { ReactNode } from 'react'
import { PRODUCT_NAME, PRODUCT_TAGLINE, PRODUCT_VERSION } from '~/lib/shared/constants'
import classes from './app-shell.module.css'
import { NAV_ITEMS, SIDEBAR_TEXTS } from './nav-items'

/** The conversations that need a person, beside Conversations (a dot on the icon when the sidebar is narrow). */
function AttentionCount({ count, collapsed }: { count: number; collapsed: boolean }) {
  return (
    <span className={collapsed ? classes.countDot : classes.count} role="status">
      <span aria-hidden>{collapsed ? '' : count > 99 ? '99+' : count}</span>
      <VisuallyHidden>{SIDEBAR_TEXTS.needAttention(count)}</VisuallyHidden>
    </span>
  )
}

/** The sidebar's inside, shared by the desktop column and the mobile drawer. */
export function SidebarContent({
  collapsed,
  organizationSwitcher,
  needsAttention = 0,
  onNavigate,
}: {
  collapsed: boolean
  organizationSwitcher?: ReactNode
  needsAttention?: number
  onNavigate?: () => void
}) {
  return (
    <>
      <div className={classes.brand}>
        <img src={logoUrl} alt="" width={28} height={28} style={{ flex: '0 0 auto' }} />
        <Box className={classes.label} style={{ minWidth: 0 }}>
          <Text fw={700} size="sm" lh={1.2}>
            {PRODUCT_NAME}
          </Text>
          <Text size="xs" c="gray.7" lh={1.2}>
            {PRODUCT_TAGLINE}
          </Text>
        </Box>
      </div>
      {organizationSwitcher ? <Box px="xs">{organizationSwitcher}</Box> : null}
      <nav className={classes.nav} aria-label="Main">
        {NAV_ITEMS.map(({ label, to, icon: Icon, end }) => (
          <Tooltip key={to} label={label} position="right" openDelay={0} disabled={!collapsed}>
            <NavLink to={to} end={end} prefetch="intent" className={classes.navLink} onClick={onNavigate}>
              <Icon size={18} aria-hidden style={{ flex: '0 0 auto' }} />
              <span className={classes.label}>{label}</span>
              {to === '/conversations' && needsAttention > 0 ? (
                <AttentionCount count={needsAttention} collapsed={collapsed} />
              ) : null}
            </NavLink>
          </Tooltip>
        ))}
      </nav>
      <div className={classes.footer}>
        <span className={classes.label}>Version </span>
        {PRODUCT_VERSION}
      </div>
    </>
  )
}
