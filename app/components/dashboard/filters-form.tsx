import { Alert, Button, Group, List, NativeSelect, Paper, TextInput } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useState } from 'react'
import { DASHBOARD_PERIOD_LABELS, DASHBOARD_PERIODS, DASHBOARD_TEXTS as T } from '~/lib/analytics/dashboard'

type Option = { id: string; name: string }

/**
 * The period and filters: a GET form, so the figures are a URL (bookmarkable, and it works without JavaScript). The
 * dates show the period in force; editing one switches the period to the custom range.
 */
export function FiltersForm({
  values,
  channels,
  agents,
  errors,
  busy,
}: {
  values: { period: string; from: string; to: string; channelId: string; agentId: string }
  channels: Option[]
  agents: Option[]
  errors: string[]
  busy: boolean
}) {
  const [period, setPeriod] = useState(values.period)
  return (
    <Paper withBorder p="md" mb="md">
      <Form method="get" aria-label="Period and filters" key={JSON.stringify(values)}>
        {errors.length > 0 ? (
          <Alert color="red" mb="sm" role="alert" title={T.filtersInvalid}>
            <List size="sm">
              {errors.map((error) => (
                <List.Item key={error}>{error}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Period"
            name="period"
            value={period}
            onChange={(event) => setPeriod(event.currentTarget.value)}
            data={DASHBOARD_PERIODS.map((value) => ({ value, label: DASHBOARD_PERIOD_LABELS[value] }))}
          />
          <TextInput
            label="From"
            name="from"
            type="date"
            defaultValue={values.from}
            onChange={() => setPeriod('custom')}
            error={errors.length > 0 && values.period === 'custom'}
          />
          <TextInput
            label="To"
            name="to"
            type="date"
            defaultValue={values.to}
            onChange={() => setPeriod('custom')}
            error={errors.length > 0 && values.period === 'custom'}
          />
          <NativeSelect
            label="Channel"
            name="channelId"
            defaultValue={values.channelId}
            data={[
              { value: '', label: 'All channels' },
              ...channels.map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
          <NativeSelect
            label="Agent"
            name="agentId"
            defaultValue={values.agentId}
            data={[
              { value: '', label: 'All agents' },
              ...agents.map((a) => ({ value: a.id, label: a.name })),
            ]}
          />
          <Button type="submit" loading={busy}>
            Apply
          </Button>
        </Group>
      </Form>
    </Paper>
  )
}
