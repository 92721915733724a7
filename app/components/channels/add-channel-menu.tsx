import { Badge, Button, Loader, Menu, Text } from '@mantine/core'
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
import { CONNECT_PATHS } from './paths'
import { CHANNEL_UI_TEXTS } from './texts'
import type { MetaConnect, MetaPlatform } from './use-meta-connect'

const META_ENTRIES = [
  { platform: 'facebook', label: 'Facebook Page', Icon: IconBrandFacebook },
  { platform: 'whatsapp', label: 'WhatsApp Business Account', Icon: IconBrandWhatsapp },
] as const

/** Why a Meta entry cannot be used on this server, or null when it can. */
function unavailableReason(platform: MetaPlatform, { meta }: MetaConnect): string | null {
  if (platform === 'facebook') return meta.configured ? null : CHANNEL_UI_TEXTS.facebookNotConfigured
  return meta.configured && meta.whatsappConfigId ? null : CHANNEL_UI_TEXTS.whatsappNotConfigured
}

/** Without JavaScript the Facebook SDK cannot run: the entries say so. */
function NoScriptEntry({ entry }: { entry: (typeof META_ENTRIES)[number] }) {
  return (
    <span className={classes.disabledEntry} aria-disabled="true">
      <entry.Icon size={16} aria-hidden />
      {entry.label}
      <Badge size="xs" variant="light" color="gray" radius="sm">
        {CHANNEL_UI_TEXTS.needsJavaScript}
      </Badge>
    </span>
  )
}

/**
 * The Add Channel dropdown: Telegram opens its dialog; Facebook Page and WhatsApp Business Account run their
 * connect at once (spec section 2), or explain what the server lacks. Without JavaScript a native disclosure.
 */
export function AddChannelMenu({ centered = false, meta }: { centered?: boolean; meta: MetaConnect }) {
  const hydrated = useHydrated()
  const [facebook, whatsapp] = META_ENTRIES
  if (!hydrated) {
    return (
      <details className={`${classes.noScriptMenu} ${centered ? classes.noScriptMenuCentered : ''}`}>
        <Button component="summary" leftSection={<IconPlus size={16} aria-hidden />}>
          Add Channel
        </Button>
        <ul className={classes.noScriptMenuList}>
          <li>
            <NoScriptEntry entry={facebook} />
          </li>
          <li>
            <Link to={CONNECT_PATHS.telegram} preventScrollReset>
              <IconBrandTelegram size={16} aria-hidden />
              Telegram Bot
            </Link>
          </li>
          <li>
            <NoScriptEntry entry={whatsapp} />
          </li>
        </ul>
      </details>
    )
  }

  const { busy } = meta
  const metaItem = (entry: (typeof META_ENTRIES)[number]) => {
    const reason = unavailableReason(entry.platform, meta)
    const connecting = busy === entry.platform
    return (
      <Menu.Item
        disabled={reason !== null || busy !== null}
        onClick={() => meta.connect(entry.platform)}
        leftSection={connecting ? <Loader size={16} aria-hidden /> : <entry.Icon size={16} aria-hidden />}
        aria-busy={connecting}
      >
        {connecting ? `${entry.label}: ${CHANNEL_UI_TEXTS.connecting}` : entry.label}
        {reason ? (
          <Text size="xs" c="gray.7" className={classes.menuHint}>
            {reason}
          </Text>
        ) : null}
      </Menu.Item>
    )
  }

  return (
    <Menu
      position={centered ? 'bottom' : 'bottom-end'}
      withinPortal
      shadow="md"
      width={340}
      onOpen={meta.prepare}
    >
      <Menu.Target>
        <Button
          leftSection={
            busy ? <Loader size={14} color="currentColor" aria-hidden /> : <IconPlus size={16} aria-hidden />
          }
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-busy={busy !== null}
        >
          {busy ? CHANNEL_UI_TEXTS.connecting : 'Add Channel'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {metaItem(facebook)}
        <Menu.Item
          component={Link}
          to={CONNECT_PATHS.telegram}
          preventScrollReset
          leftSection={<IconBrandTelegram size={16} aria-hidden />}
        >
          Telegram Bot
        </Menu.Item>
        {metaItem(whatsapp)}
      </Menu.Dropdown>
    </Menu>
  )
}
