import { Box, Container, Stack, Text, Title } from '@mantine/core'
import { isRouteErrorResponse } from '@remix-run/react'
import { useEffect } from 'react'

function describe(error: unknown): string {
  if (isRouteErrorResponse(error))
    return `${error.status} ${error.statusText}${error.data ? `: ${String(error.data)}` : ''}`
  if (error instanceof Error) return error.message
  return String(error)
}

/** The spec's fallback for an uncaught rendering error. */
export function ErrorFallback({ error }: { error: unknown }) {
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <Box
      role="alert"
      mih="100vh"
      bg="red.0"
      display="flex"
      style={{ alignItems: 'center', justifyContent: 'center' }}
    >
      <Container size="sm">
        <Stack gap="md">
          <Title order={1} c="red.9">
            Something went wrong.
          </Title>
          <Text c="red.9">We&apos;re sorry for the inconvenience.</Text>
          <details>
            <summary style={{ cursor: 'pointer', color: 'var(--mantine-color-red-9)' }}>
              Error Details
            </summary>
            <Text component="pre" mt="sm" p="sm" bg="white" c="red.9" style={{ whiteSpace: 'pre-wrap' }}>
              {describe(error)}
            </Text>
          </details>
        </Stack>
      </Container>
    </Box>
  )
}
