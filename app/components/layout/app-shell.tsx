import { ActionIcon, Drawer, Loader, Text, Tooltip } from '@mantine/core'
import { useHotkeys } from '@mantine/hooks'
import { IconLayoutSidebar } from '@tabler/icons-react'
import { useNavigation } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import {
  LOADING_SCREEN_DELAY_MS,
  MOBILE_BREAKPOINT_PX,
  SIDEBAR_SHORTCUT,
  SIDEBAR_WIDTH_MOBILE,
} from '~/lib/shared/constants'
import { sidebarCookie } from '~/lib/shared/sidebar'
import classes from './app-shell.module.css'
import { SidebarContent } from './sidebar-content'

const isMobileViewport = () => window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`).matches

/** Shows the full-screen "Loading..." only when a page takes long enough to notice. */
/** A navigation quicker than this shows nothing (the bar would only flicker). */
const PROGRESS_BAR_DELAY_MS = 120

/** Whether a navigation has taken long enough (PROGRESS_BAR_DELAY_MS) that the top bar should show it. */
function useNavigationPending(): boolean {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle'
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (!pending) return setShown(false)
    const timer = setTimeout(() => setShown(true), PROGRESS_BAR_DELAY_MS)
    return () => clearTimeout(timer)
  }, [pending])
  return shown
}

function useSlowNavigation(): boolean {
  const navigation = useNavigation()
  const loading = navigation.state === 'loading'
  const [slow, setSlow] = useState(false)
  useEffect(() => {
    if (!loading) {
      setSlow(false)
      return
    }
    const timer = setTimeout(() => setSlow(true), LOADING_SCREEN_DELAY_MS)
    return () => clearTimeout(timer)
  }, [loading])
  return slow
}

export function LoadingScreen() {
  return (
    <div className={classes.loadingScreen} role="status" aria-live="polite">
      <Loader />
      <Text>Loading...</Text>
    </div>
  )
}

export function AppShell({
  initialOpen,
  organizationSwitcher,
  banner,
  needsAttention = 0,
  headerEnd,
  children,
}: {
  initialOpen: boolean
  organizationSwitcher?: ReactNode
  /** Above every page, below the header (the channel health banner). */
  banner?: ReactNode
  /** Conversations that need a person: counted beside Conversations in the sidebar. */
  needsAttention?: number
  /** At the header's far end (the notifications' bell). */
  headerEnd?: ReactNode
  children: ReactNode
}) {
  const [open, setOpen] = useState(initialOpen)
  const [mobileOpen, setMobileOpen] = useState(false)
  const slow = useSlowNavigation()
  const pending = useNavigationPending()

  const toggle = () => {
    if (isMobileViewport()) {
      setMobileOpen((o) => !o)
      return
    }
    setOpen((current) => {
      document.cookie = sidebarCookie(!current)
      return !current
    })
  }
  useHotkeys([[SIDEBAR_SHORTCUT, toggle]])

  return (
    <div className={classes.shell} data-sidebar={open ? 'open' : 'collapsed'}>
      <aside className={classes.sidebar} aria-label="Sidebar" data-testid="sidebar">
        <SidebarContent
          collapsed={!open}
          organizationSwitcher={organizationSwitcher}
          needsAttention={needsAttention}
        />
      </aside>
      <Drawer
        opened={mobileOpen}
        onClose={() => setMobileOpen(false)}
        size={SIDEBAR_WIDTH_MOBILE}
        withCloseButton={false}
        padding={0}
      >
        <SidebarContent
          collapsed={false}
          organizationSwitcher={organizationSwitcher}
          needsAttention={needsAttention}
          onNavigate={() => setMobileOpen(false)}
        />
      </Drawer>
      <div className={classes.content}>
        {pending ? (
          <div className={classes.progress} role="progressbar" aria-label="Loading the page" />
        ) : null}
        <header className={classes.header}>
          <Tooltip label="Toggle sidebar (Ctrl+B)" openDelay={0}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={toggle}
              aria-label="Toggle sidebar"
              aria-expanded={open}
            >
              <IconLayoutSidebar size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
          {headerEnd ? <div className={classes.headerEnd}>{headerEnd}</div> : null}
        </header>
        {banner}
        <main className={classes.main}>{children}</main>
      </div>
      {slow ? <LoadingScreen /> : null}
    </div>
  )
}
