import { Box, Text, Tooltip } from '@mantine/core'
import { NavLink } from '@remix-run/react'
import logoUrl from '~/assets/logo.svg'
import type { ReactNode } from 'react'
import { PRODUCT_NAME, PRODUCT_TAGLINE, PRODUCT_VERSION } from '~/lib/shared/constants'
import classes from './app-shell.module.css'
import { NAV_ITEMS } from './nav-items'

/** The sidebar's inside, shared by the desktop column and the mobile drawer. */
export function SidebarContent({
  collapsed,
  organizationSwitcher,
  onNavigate,
}: {
  collapsed: boolean
  organizationSwitcher?: ReactNode
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
