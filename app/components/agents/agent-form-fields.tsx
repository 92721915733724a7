// Fields of the agent form that need more than a Mantine input: a select that works before hydration, creativity.
import { Group, Input, NativeSelect, Select, Slider, Stack, Text, TextInput } from '@mantine/core'
import { useId, useState } from 'react'
import { creativityLabel, creativityPercent } from '~/lib/agents/schemas'

/** A Mantine Select once hydrated; a native select before (the Mantine one needs JavaScript to open). */
export function ChoiceField({
  hydrated,
  ...props
}: {
  hydrated: boolean
  id: string
  name: string
  label: string
  description?: string
  defaultValue: string
  data: { value: string; label: string }[]
  error?: string
  disabled?: boolean
}) {
  return hydrated ? (
    <Select {...props} allowDeselect={false} checkIconPosition="right" />
  ) : (
    <NativeSelect {...props} />
  )
}

/** The 0–1 slider; before hydration a number input of the same name, so that the form posts without JavaScript. */
export function CreativityField({
  hydrated,
  id,
  name,
  defaultValue,
  error,
  disabled,
}: {
  hydrated: boolean
  id: string
  name: string
  defaultValue: number
  error?: string
  disabled?: boolean
}) {
  const [value, setValue] = useState(defaultValue)
  const labelId = useId()
  const errorId = useId()
  if (!hydrated) {
    return (
      <TextInput
        type="number"
        id={id}
        name={name}
        label="Creativity Level"
        description="From 0 (focused) to 1 (creative), in steps of 0.1"
        min={0}
        max={1}
        step={0.1}
        defaultValue={String(defaultValue)}
        error={error}
        disabled={disabled}
      />
    )
  }
  return (
    <Stack gap={6} pb="lg">
      <Group justify="space-between">
        <Input.Label id={labelId} htmlFor={id}>
          Creativity Level
        </Input.Label>
        <Text size="sm" fw={600} aria-hidden>
          {creativityPercent(value)} · {creativityLabel(value)}
        </Text>
      </Group>
      <Slider
        // Room for the end marks' labels, which are centred on the ends of the track.
        mx="xl"
        name={name}
        min={0}
        max={1}
        step={0.1}
        value={value}
        onChange={setValue}
        disabled={disabled}
        label={creativityPercent}
        thumbLabel="Creativity Level"
        thumbProps={{
          id,
          'aria-valuetext': `${creativityPercent(value)} (${creativityLabel(value)})`,
          'aria-describedby': error ? errorId : undefined,
          'aria-invalid': error ? true : undefined,
        }}
        marks={[
          { value: 0, label: 'Focused' },
          { value: 0.5, label: 'Balanced' },
          { value: 1, label: 'Creative' },
        ]}
        color={error ? 'red' : undefined}
      />
      {error ? (
        <Input.Error id={errorId} mt="md">
          {error}
        </Input.Error>
      ) : null}
    </Stack>
  )
}

/** The sections as tabs; without JavaScript (where tabs cannot switch) the same fields, stacked. */
