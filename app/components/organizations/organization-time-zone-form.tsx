import type { SubmissionResult } from '@conform-to/react'
import { Group, NativeSelect, Paper, Select, Text, Title } from '@mantine/core'
import { Form } from '@remix-run/react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import { useSchemaForm } from '~/components/forms/use-schema-form'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { organizationTimeZoneSchema } from '~/lib/analytics/analytics'

export const TIME_ZONE_INTENT = 'time-zone'

/**
 * The organization's time zone, in which the dashboard counts days and hours: a select of the server's IANA zones
 * (searchable once hydrated, the browser's own select without JavaScript); owners change it, members see it.
 */
export function OrganizationTimeZoneForm({
  timeZone,
  timeZones,
  canEdit,
  lastResult,
  notice,
  pending,
}: {
  timeZone: string
  /** The zones this server knows (timeZoneList); a stored zone missing from it is still offered. */
  timeZones: string[]
  canEdit: boolean
  lastResult: SubmissionResult<string[]> | undefined
  notice: string | null
  pending: boolean
}) {
  const hydrated = useHydrated()
  const [form, fields] = useSchemaForm('organization-time-zone', organizationTimeZoneSchema, lastResult)
  const zones = timeZones.includes(timeZone) ? timeZones : [timeZone, ...timeZones]
  const field = fields.timeZone
  const common = {
    id: field.id,
    name: field.name,
    label: 'Time zone',
    description: 'The dashboard counts days and hours in this time zone',
    error: field.errors?.[0],
    style: { flex: '1 1 16rem' },
  }
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="organization-time-zone-heading">
      <Title order={2} size="h4" mb="md" id="organization-time-zone-heading">
        Time zone
      </Title>
      {canEdit ? (
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate={hydrated}>
          <FormError message={form.errors?.[0]} />
          {notice ? (
            <Text mb="xs" role="status">
              {notice}
            </Text>
          ) : null}
          <Group align="flex-start" gap="sm">
            {hydrated ? (
              <Select
                {...common}
                key={timeZone}
                data={zones}
                defaultValue={timeZone}
                searchable
                allowDeselect={false}
                limit={100}
                nothingFoundMessage="No such time zone"
                checkIconPosition="right"
              />
            ) : (
              <NativeSelect {...common} data={zones} defaultValue={timeZone} />
            )}
            <PendingButton
              name="intent"
              value={TIME_ZONE_INTENT}
              pending={pending}
              pendingLabel="Saving..."
              mt={{ base: 0, xs: 46 }}
            >
              Save time zone
            </PendingButton>
          </Group>
        </Form>
      ) : (
        <Text>
          {timeZone}{' '}
          <Text span size="sm" c="gray.7">
            (the dashboard counts days and hours in this time zone; owners can change it)
          </Text>
        </Text>
      )}
    </Paper>
  )
}
