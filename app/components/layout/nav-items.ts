import { IconLayoutDashboard, IconMessageCircle, IconRobot, IconSettings } from '@tabler/icons-react'

export const NAV_ITEMS = [
  { label: 'Dashboard', to: '/', icon: IconLayoutDashboard, end: true },
  { label: 'Channels', to: '/channels', icon: IconMessageCircle, end: false },
  { label: 'Agents', to: '/agents', icon: IconRobot, end: false },
  { label: 'Settings', to: '/settings', icon: IconSettings, end: false },
] as const
