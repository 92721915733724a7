import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import type { MetaFunction } from '@remix-run/node'
import { Form, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { PendingButton } from '~/components/forms/pending-button'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/constants'
import type { loader as appLoader } from './_app'

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }]

function Field({ label, value }: { label: string; value: string | null }) {
  if (!value) return null
  return (
    <div>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fw={500} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  )
}

export default function SettingsPage() {
  const data = useRouteLoaderData<typeof appLoader>('routes/_app')
  const navigation = useNavigation()
  const signingOut = navigation.state !== 'idle' && navigation.formAction === '/logout'
  const user = data?.user
  return (
    <>
      <PageHeader title="Settings" subtitle="Your account" />
      <Stack gap="lg" maw={720}>
        {user ? (
          <Paper withBorder p="lg">
            <Title order={2} size="h4" mb="md">
              Account Information
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field label="Name" value={user.displayName} />
              <Field label="Email" value={user.email} />
              <Field label="User ID" value={user.uid} />
            </SimpleGrid>
          </Paper>
        ) : null}
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Account Actions
          </Title>
          <Form method="post" action="/logout">
            <PendingButton color="red" variant="light" pending={signingOut} pendingLabel="Signing out...">
              Sign Out
            </PendingButton>
          </Form>
        </Paper>
      </Stack>
    </>
  )
}
