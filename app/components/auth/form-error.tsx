import { Alert } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'

/** The red box for a provider's message. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
      {message}
    </Alert>
  )
}
