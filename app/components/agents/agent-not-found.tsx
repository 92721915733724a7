import { Alert } from '@mantine/core'

/** A dialog opened for an agent that is not (or no longer) in the current organization. */
export function AgentNotFound() {
  return (
    <Alert color="red" variant="light" role="alert">
      Agent not found
    </Alert>
  )
}
