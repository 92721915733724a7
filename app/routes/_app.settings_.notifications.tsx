import {
  Alert,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { PageHeader } from '~/components/layout/page-header'
import { BrowserAlerts } from '~/components/notifications/browser-alerts'
import { PushSwitch } from '~/components/notifications/push-switch'
import { SettingsSection } from '~/components/layout/settings-section'
import { TelegramAlerts, type TelegramCodeView } from '~/components/notifications/telegram-alerts'
import { requireSignedIn } from '~/http/auth.server'
import { timeZoneList } from '~/lib/agents/behaviour-form'
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_MEDIA,
  NOTIFICATION_TEXTS,
  TELEGRAM_ALERT_TEXTS,
  telegramAlertFormSchema,
  type NotificationMedium,
  type NotificationPreferences,
} from '~/lib/notifications/notifications'
import { choiceField, parsePreferencesForm } from '~/lib/notifications/preferences-form'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { getRuntime } from '~/runtime/runtime.server'
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from '~/services/notifications/preferences.server'
import { countPushSubscriptions } from '~/services/notifications/push.server'
import {
  createTelegramLinkCode,
  getTelegramAlerts,
  unlinkTelegramAlerts,
} from '~/services/notifications/telegram-alerts.server'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'

// A member's notification choices (issue 35, docs/decisions/068): each event by each medium, quiet hours.

export const meta: MetaFunction = () => [{ title: `Notification settings · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request)
  const { database, config } = await getRuntime()
  const scope = await getCurrentScope(request)
  const [preferences, pushBrowsers, telegram] = await Promise.all([
    getNotificationPreferences(database.db, user.id),
    countPushSubscriptions(database.db, user.id),
    scope ? getTelegramAlerts(scope) : null,
  ])
  return {
    preferences,
    pushBrowsers,
    telegram,
    pushOn: Boolean(config.push),
    emailOn: Boolean(config.email),
    hasEmail: Boolean(user.email),
    timeZones: timeZoneList(),
  }
}

type ActionResult = {
  saved: boolean
  errors: Record<string, string>
  telegram?: { code: TelegramCodeView | null; message: string | null; error: string | null }
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireSignedIn(request)
  const form = await request.formData()
  if (String(form.get('intent') ?? '').startsWith('telegram-')) return telegramAction(request, form)
  const parsed = parsePreferencesForm(form)
  if (!parsed.success) {
    const errors = Object.fromEntries(
      parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
    )
    return data<ActionResult>({ saved: false, errors }, 400)
  }
  const { database } = await getRuntime()
  await updateNotificationPreferences(database.db, user.id, parsed.data)
  return data<ActionResult>({ saved: true, errors: {} })
}

/** Link Telegram (a one-time code for the chosen bot) or unlink it, in the session's organization. */
async function telegramAction(request: Request, form: FormData) {
  const reply = (telegram: NonNullable<ActionResult['telegram']>, status = 200) =>
    data<ActionResult>({ saved: false, errors: {}, telegram }, status)
  const parsed = telegramAlertFormSchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) {
    return reply({ code: null, message: null, error: parsed.error.issues[0].message }, 400)
  }
  const input = parsed.data
  const outcome = await attemptInScope(
    await getCurrentScope(request),
    async (scope) =>
      input.intent === 'telegram-link'
        ? createTelegramLinkCode(scope, input.channelId)
        : unlinkTelegramAlerts(scope).then(() => null),
    input.intent === 'telegram-link'
      ? 'Telegram could not be linked. Please try again.'
      : 'Telegram could not be unlinked. Please try again.',
    { action: input.intent },
  )
  if (!outcome.ok)
    return reply({ code: null, message: null, error: outcome.failure.reason }, outcome.failure.status)
  return reply({
    code: outcome.value,
    message: outcome.value ? null : TELEGRAM_ALERT_TEXTS.unlinked,
    error: null,
  })
}

export default function NotificationSettingsPage() {
  const { preferences, emailOn, hasEmail, timeZones, pushOn, pushBrowsers, telegram } =
    useLoaderData<typeof loader>()
  const [browsers, setBrowsers] = useState(pushBrowsers)
  useEffect(() => setBrowsers(pushBrowsers), [pushBrowsers])
  const result = useActionData<typeof action>()
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formAction === '/settings/notifications'
  const emailNote = !emailOn
    ? NOTIFICATION_TEXTS.emailOff
    : !hasEmail
      ? NOTIFICATION_TEXTS.emailNoAddress
      : null
  return (
    <>
      <PageHeader title="Notification settings" subtitle={NOTIFICATION_TEXTS.settingsSubtitle} />
      <Form method="post" action="/settings/notifications">
        <Stack gap="lg" maw={720}>
          {result?.saved ? (
            <Alert color="green" role="status">
              {NOTIFICATION_TEXTS.saved}
            </Alert>
          ) : null}
          <ChoicesTable
            preferences={preferences}
            emailNote={emailNote}
            pushNote={pushOn && browsers === 0 ? NOTIFICATION_TEXTS.pushNone : null}
            telegramNote={telegram?.link?.linked ? null : TELEGRAM_ALERT_TEXTS.notLinked}
          />
          <QuietHours preferences={preferences} timeZones={timeZones} errors={result?.errors ?? {}} />
          <Group>
            <PendingButton pending={saving} pendingLabel="Saving...">
              Save
            </PendingButton>
          </Group>
        </Stack>
      </Form>
      {/* These act at once, in this browser: no Save. */}
      <Stack gap="lg" maw={720} mt="lg">
        <SettingsSection
          id="browser-alerts"
          title={NOTIFICATION_TEXTS.browserHeading}
          hint={NOTIFICATION_TEXTS.browserHint}
        >
          <BrowserAlerts />
        </SettingsSection>
        {pushOn ? (
          <SettingsSection
            id="push"
            title={NOTIFICATION_TEXTS.pushHeading}
            hint={NOTIFICATION_TEXTS.pushHint}
          >
            <PushSwitch onChange={setBrowsers} />
          </SettingsSection>
        ) : null}
        {telegram ? (
          <TelegramAlerts
            state={telegram}
            fresh={result?.telegram?.code ?? null}
            message={result?.telegram?.message ?? null}
            error={result?.telegram?.error ?? null}
          />
        ) : null}
      </Stack>
    </>
  )
}

function ChoicesTable({
  preferences,
  emailNote,
  pushNote,
  telegramNote,
}: {
  preferences: NotificationPreferences
  emailNote: string | null
  pushNote: string | null
  telegramNote: string | null
}) {
  // A box that cannot be changed now (email not set up, Telegram not linked) keeps its choice for later.
  const locked = (medium: NotificationMedium) =>
    (medium === 'email' && emailNote !== null) || (medium === 'telegram' && telegramNote !== null)
  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'lg' }}
      component="section"
      aria-labelledby="notification-choices-heading"
    >
      <Title order={2} size="h4" mb="xs" id="notification-choices-heading">
        {NOTIFICATION_TEXTS.choicesHeading}
      </Title>
      {[emailNote, pushNote, telegramNote].filter(Boolean).map((note) => (
        <Text key={note} size="sm" c="gray.7" mb="sm">
          {note}
        </Text>
      ))}
      {/* Four media beside the events: narrow columns and spacing leave a phone room for the words. */}
      <Table verticalSpacing="sm" horizontalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{NOTIFICATION_TEXTS.eventColumn}</Table.Th>
            {NOTIFICATION_MEDIA.map((medium) => (
              <Table.Th key={medium} ta="center" w={{ base: 50, sm: 88 }} fz={{ base: 11, sm: 'sm' }}>
                {NOTIFICATION_TEXTS.media[medium]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {NOTIFICATION_EVENTS.map((event) => (
            <Table.Tr key={event}>
              <Table.Td>
                <Text size="sm" fw={500} id={`event-${event}`}>
                  {NOTIFICATION_TEXTS.events[event]}
                </Text>
                <Text size="xs" c="gray.7">
                  {NOTIFICATION_TEXTS.eventHints[event]}
                </Text>
              </Table.Td>
              {NOTIFICATION_MEDIA.map((medium) => (
                <Table.Td key={medium}>
                  <Group justify="center">
                    <Checkbox
                      name={choiceField(event, medium)}
                      defaultChecked={preferences.choices[event][medium]}
                      disabled={locked(medium)}
                      aria-label={`${NOTIFICATION_TEXTS.events[event]}: ${NOTIFICATION_TEXTS.media[medium]}`}
                    />
                    {locked(medium) && preferences.choices[event][medium] ? (
                      <input type="hidden" name={choiceField(event, medium)} value="on" />
                    ) : null}
                  </Group>
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  )
}

function QuietHours({
  preferences,
  timeZones,
  errors,
}: {
  preferences: NotificationPreferences
  timeZones: string[]
  errors: Record<string, string>
}) {
  const hydrated = useHydrated()
  const [on, setOn] = useState(preferences.quietHours !== null)
  useEffect(() => setOn(preferences.quietHours !== null), [preferences.quietHours])
  // A member who never chose a zone gets the browser's, once it runs.
  const [zone, setZone] = useState(preferences.timeZone)
  useEffect(() => {
    if (preferences.quietHours === null && preferences.timeZone === 'UTC') {
      const browser = Intl.DateTimeFormat().resolvedOptions().timeZone
      if (browser && timeZones.includes(browser)) setZone(browser)
    }
  }, [preferences.quietHours, preferences.timeZone, timeZones])
  const zones = timeZones.includes(zone) ? timeZones : [zone, ...timeZones]
  return (
    <SettingsSection
      id="quiet-hours"
      title={NOTIFICATION_TEXTS.quietHeading}
      hint={NOTIFICATION_TEXTS.quietHint}
    >
      <Checkbox
        name="quiet"
        label={NOTIFICATION_TEXTS.quietSwitch}
        checked={on}
        onChange={(event) => setOn(event.currentTarget.checked)}
        mb="sm"
      />
      <Group align="flex-start" gap="sm" hidden={hydrated && !on}>
        <TextInput
          type="time"
          name="quietStart"
          label={NOTIFICATION_TEXTS.quietFrom}
          defaultValue={preferences.quietHours?.start ?? '22:00'}
          error={errors['quietHours.start']}
          w={140}
        />
        <TextInput
          type="time"
          name="quietEnd"
          label={NOTIFICATION_TEXTS.quietTo}
          defaultValue={preferences.quietHours?.end ?? '07:00'}
          error={errors['quietHours.end']}
          w={140}
        />
        <NativeSelect
          name="timeZone"
          label="Time zone"
          data={zones}
          value={zone}
          onChange={(event) => setZone(event.currentTarget.value)}
          error={errors.timeZone}
          style={{ flex: '1 1 14rem' }}
        />
      </Group>
    </SettingsSection>
  )
}
