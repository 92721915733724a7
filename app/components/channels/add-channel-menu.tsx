import { Badge, Button, Menu } from '@mantine/core'
import {
  IconBrandFacebook,
  IconBrandTelegram,
  IconBrandWhatsapp,
  IconChevronDown,
  IconPlus,
} from '@tabler/icons-react'
import { Link } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import classes from './channels.module.css'
import { channelDialogHref } from './dialog-url'
import { CHANNEL_UI_MESSAGES } from './messages'

/** Facebook and WhatsApp connect through the platforms' own sign-up flows, which this increment does not wire. */
const NOT_YET = [
  { label: 'Facebook Page', Icon: IconBrandFacebook },
  { label: 'WhatsApp Business Account', Icon: IconBrandWhatsapp },
] as const

function ComingSoon() {
  return (
    <Badge size="xs" variant="light" color="gray" radius="sm">
      {CHANNEL_UI_MESSAGES.comingSoon}
    </Badge>
  )
}

function NotYetEntry({ entry }: { entry: (typeof NOT_YET)[number] }) {
  return (
    <span className={classes.disabledEntry} aria-disabled="true">
      <entry.Icon size={16} aria-hidden />
      {entry.label}
      <ComingSoon />
    </span>
  )
}

/** The Add Channel dropdown; without JavaScript a native disclosure with the same entries. */
export function AddChannelMenu({ centered = false }: { centered?: boolean }) {
  const hydrated = useHydrated()
  const [facebook, whatsapp] = NOT_YET
  if (!hydrated) {
    return (
      <details className={`${classes.noScriptMenu} ${centered ? classes.noScriptMenuCentered : ''}`}>
        <Button component="summary" leftSection={<IconPlus size={16} aria-hidden />}>
          Add Channel
        </Button>
        <ul className={classes.noScriptMenuList}>
          <li>
            <NotYetEntry entry={facebook} />
          </li>
          <li>
            <Link to={channelDialogHref('connect-telegram')} preventScrollReset>
              <IconBrandTelegram size={16} aria-hidden />
              Telegram Bot
            </Link>
          </li>
          <li>
            <NotYetEntry entry={whatsapp} />
          </li>
        </ul>
      </details>
    )
  }
  return (
    <Menu position={centered ? 'bottom' : 'bottom-end'} withinPortal shadow="md" width={340}>
      <Menu.Target>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          Add Channel
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          disabled
          leftSection={<IconBrandFacebook size={16} aria-hidden />}
          rightSection={<ComingSoon />}
        >
          {facebook.label}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={channelDialogHref('connect-telegram')}
          preventScrollReset
          leftSection={<IconBrandTelegram size={16} aria-hidden />}
        >
          Telegram Bot
        </Menu.Item>
        <Menu.Item
          disabled
          leftSection={<IconBrandWhatsapp size={16} aria-hidden />}
          rightSection={<ComingSoon />}
        >
          {whatsapp.label}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
