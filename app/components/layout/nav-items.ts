import {
  IconBook2,
  IconInbox,
  IconLayoutDashboard,
  IconMessageCircle,
  IconRobot,
  IconSettings,
} from '@tabler/icons-react'

export const NAV_ITEMS = [
  { label: 'Dashboard', to: '/', icon: IconLayoutDashboard, end: true },
  // Beyond the spec's route table: docs/decisions/036.
  { label: 'Conversations', to: '/conversations', icon: IconInbox, end: false },
  { label: 'Channels', to: '/channels', icon: IconMessageCircle, end: false },
  { label: 'Agents', to: '/agents', icon: IconRobot, end: false },
  // Beyond the spec's route table: docs/decisions/045.
  { label: 'Knowledge', to: '/knowledge', icon: IconBook2, end: false },
  { label: 'Settings', to: '/settings', icon: IconSettings, end: false },
] as const

export const SIDEBAR_TEXTS = {
  needAttention: (count: number) => `${count} ${count === 1 ? 'needs' : 'need'} attention`,
}
