import { Alert, Anchor, Button, Code, Group, NativeSelect, Stack, Text } from '@mantine/core'
import { Form, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { SettingsSection } from '~/components/layout/settings-section'
import { TELEGRAM_ALERT_TEXTS } from '~/lib/notifications/notifications'

export type TelegramAlertsView = {
  bots: Array<{ id: string; name: string }>
  link: { botName: string; telegramName: string | null; linked: boolean; codeExpiresAt: string | null } | null
}

/** A code just made, shown once: only its hash is kept. */
export type TelegramCodeView = { code: string; url: string | null; botName: string; expiresAt: string }

const ACTION = '/settings/notifications'
/** How often the page looks whether the member pressed Start. */
const LINK_POLL_MS = 3000

/**
 * Linking Telegram for alerts (docs/decisions/069): choose a bot, open it with a one-time link, and the page
 * notices when Start was pressed; or unlink.
 */
export function TelegramAlerts({
  state,
  fresh,
  message,
  error,
}: {
  state: TelegramAlertsView
  /** The code the last click made, while it is not used. */
  fresh: TelegramCodeView | null
  message: string | null
  error: string | null
}) {
  const linked = state.link?.linked ?? false
  const waiting = fresh !== null && !linked
  return (
    <SettingsSection
      id="telegram-alerts"
      title={TELEGRAM_ALERT_TEXTS.heading}
      hint={TELEGRAM_ALERT_TEXTS.hint}
    >
      <Stack gap="sm">
        {message ? (
          <Alert color="green" role="status">
            {message}
          </Alert>
        ) : null}
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {state.bots.length === 0 ? (
          <Text size="sm">{TELEGRAM_ALERT_TEXTS.noBot}</Text>
        ) : linked && state.link ? (
          <Linked name={state.link.telegramName} botName={state.link.botName} />
        ) : waiting ? (
          <Waiting code={fresh} />
        ) : (
          <LinkForm bots={state.bots} expired={isExpired(state.link)} />
        )}
      </Stack>
    </SettingsSection>
  )
}

function isExpired(link: TelegramAlertsView['link']): boolean {
  return Boolean(link && !link.linked && link.codeExpiresAt && Date.parse(link.codeExpiresAt) < Date.now())
}

function Linked({ name, botName }: { name: string | null; botName: string }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'telegram-unlink'
  return (
    <Form method="post" action={ACTION}>
      <Text size="sm" mb="sm">
        {TELEGRAM_ALERT_TEXTS.linked(name ?? 'you', botName)}
      </Text>
      <input type="hidden" name="intent" value="telegram-unlink" />
      <PendingButton pending={busy} pendingLabel="Unlinking..." variant="default" size="xs">
        {TELEGRAM_ALERT_TEXTS.unlink}
      </PendingButton>
    </Form>
  )
}

/** The link to open, the message to send instead, and a look every few seconds until Start was pressed. */
function Waiting({ code }: { code: TelegramCodeView }) {
  const { revalidate } = useRevalidator()
  useEffect(() => {
    const timer = setInterval(() => {
      if (Date.parse(code.expiresAt) > Date.now()) revalidate()
    }, LINK_POLL_MS)
    return () => clearInterval(timer)
  }, [code.expiresAt, revalidate])
  return (
    <Stack gap="xs">
      {code.url ? (
        <Group>
          <Button component="a" href={code.url} target="_blank" rel="noopener noreferrer">
            {TELEGRAM_ALERT_TEXTS.open(code.botName)}
          </Button>
        </Group>
      ) : null}
      <Text size="sm">{TELEGRAM_ALERT_TEXTS.codeHint}</Text>
      <Text size="sm">
        {TELEGRAM_ALERT_TEXTS.manual(code.botName)} <Code>/start {code.code}</Code>
      </Text>
      <Text size="sm" c="gray.7" role="status">
        {TELEGRAM_ALERT_TEXTS.waiting}{' '}
        <Anchor component="button" type="button" size="sm" onClick={() => revalidate()}>
          Check now
        </Anchor>
      </Text>
    </Stack>
  )
}

function LinkForm({ bots, expired }: { bots: TelegramAlertsView['bots']; expired: boolean }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'telegram-link'
  return (
    <Form method="post" action={ACTION}>
      {expired ? (
        <Text size="sm" mb="sm">
          {TELEGRAM_ALERT_TEXTS.expired}
        </Text>
      ) : null}
      <input type="hidden" name="intent" value="telegram-link" />
      <Group align="flex-end" gap="sm">
        {bots.length > 1 ? (
          <NativeSelect
            name="channelId"
            label={TELEGRAM_ALERT_TEXTS.bot}
            data={bots.map((bot) => ({ value: bot.id, label: bot.name }))}
            style={{ flex: '0 1 16rem' }}
          />
        ) : (
          <input type="hidden" name="channelId" value={bots[0]?.id ?? ''} />
        )}
        <PendingButton pending={busy} pendingLabel="Making a link...">
          {expired ? TELEGRAM_ALERT_TEXTS.newLink : TELEGRAM_ALERT_TEXTS.link}
        </PendingButton>
      </Group>
    </Form>
  )
}
