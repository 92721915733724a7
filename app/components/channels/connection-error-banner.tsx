import { Alert, CloseButton, Group, Text } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { Link, useLocation } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { CHANNEL_UI_TEXTS } from './texts'

/** The dismissible "Connection Error" banner; without JavaScript, dismissing reloads the page without it. */
export function ConnectionErrorBanner({ message, onDismiss }: { message: string; onDismiss?: () => void }) {
  const hydrated = useHydrated()
  const location = useLocation()
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      mb="lg"
      title={CHANNEL_UI_TEXTS.connectionErrorTitle}
      icon={<IconAlertCircle aria-hidden />}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{message}</Text>
        {hydrated ? (
          <CloseButton onClick={onDismiss} aria-label="Dismiss connection error" />
        ) : (
          <CloseButton
            component={Link}
            to={`${location.pathname}${location.search}`}
            aria-label="Dismiss connection error"
          />
        )}
      </Group>
    </Alert>
  )
}
