import type { FieldMetadata } from '@conform-to/react'
import {
  Collapse,
  Fieldset,
  NativeSelect,
  NumberInput,
  Radio,
  Select,
  Stack,
  Switch,
  Checkbox,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core'
import { BUILT_IN_TEXTS_HINT } from '~/lib/agents/built-in-texts'
import { useState, type ReactNode } from 'react'
import { fieldProps } from '~/components/forms/field-props'
import {
  MAX_BURST_WAIT_SECONDS,
  OUT_OF_HOURS_MODES,
  OUT_OF_HOURS_MODE_LABELS,
  WEEKDAYS,
  WEEKDAY_LABELS,
  type Weekday,
} from '~/lib/agents/behaviour'
import { BEHAVIOUR_FORM_MARKER, DEFAULT_TIME_ZONE } from '~/lib/agents/behaviour-form'
import classes from './agents.module.css'
import { LanguageFields, type LanguageFormValues } from './agent-language-fields'

/** The Behaviour tab's values as the form holds them (office hours with their on/off switch). */
export type BehaviourFormValues = LanguageFormValues & {
  burstWaitSeconds: number
  handoffEnabled: boolean
  handoffMessage: string
  fallbackMessage: string
  unreadableMessage: string
  officeHours: {
    enabled: boolean
    timeZone: string
    days: Record<Weekday, { open: boolean; opens: string; closes: string }>
    outsideHours: string
    message: string
  }
}

type Field<T> = FieldMetadata<T, Record<string, unknown>, string[]>
type BehaviourFields = { [K in keyof BehaviourFormValues]: Field<BehaviourFormValues[K]> }

/** A checkbox's value as Conform hands it back: "on" from a post, true from the form's defaults. */
const isOn = (value: unknown) => value === 'on' || value === true
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** The browser's own time zone, when the server offers it. */
function browserTimeZone(offered: string[]): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return offered.includes(zone) ? zone : undefined
}

function TimeZoneField({
  hydrated,
  field,
  zones,
  value,
  onChange,
  disabled,
}: {
  hydrated: boolean
  field: Field<string>
  zones: string[]
  value: string
  onChange: (zone: string) => void
  disabled: boolean
}) {
  // A zone stored through the API that this server does not list is still shown, and so kept.
  const data = zones.includes(value) ? zones : [value, ...zones]
  const common = {
    id: field.id,
    name: field.name,
    label: 'Time zone',
    description: 'The schedule is in this time zone',
    error: field.errors?.[0],
    disabled,
  }
  return hydrated ? (
    <Select
      {...common}
      data={data}
      value={value}
      onChange={(zone) => zone && onChange(zone)}
      searchable
      allowDeselect={false}
      limit={100}
      nothingFoundMessage="No such time zone"
      checkIconPosition="right"
      comboboxProps={{ withinPortal: true }}
    />
  ) : (
    <NativeSelect {...common} data={data} defaultValue={value} />
  )
}

/** One day of the week: open or closed, and its hours. */
function DayRow({
  day,
  field,
  hydrated,
  disabled,
}: {
  day: Weekday
  field: Field<BehaviourFormValues['officeHours']['days'][Weekday]>
  hydrated: boolean
  disabled: boolean
}) {
  const { open, opens, closes } = field.getFieldset()
  const [isOpen, setOpen] = useState(isOn(open.initialValue))
  const label = WEEKDAY_LABELS[day]
  // Without JavaScript the boxes cannot follow the checkbox: they stay editable (and a closed day's are ignored).
  const closed = hydrated && !isOpen
  const time = (which: typeof opens, name: string) => (
    <TextInput
      key={which.key}
      {...fieldProps(which)}
      // Text rather than type="time": the browser's time box shows the locale's 12-hour clock ("05:00 PM"), too
      // wide for a phone and unlike the 24-hour times the schedule is stored and shown in.
      inputMode="numeric"
      autoComplete="off"
      maxLength={5}
      placeholder="HH:MM"
      aria-label={`${label} ${name}`}
      disabled={disabled || closed}
      classNames={{ input: classes.timeInput }}
    />
  )
  return (
    <div className={classes.scheduleRow} role="group" aria-label={label}>
      <Checkbox
        key={open.key}
        id={open.id}
        name={open.name}
        label={label}
        defaultChecked={isOn(open.initialValue)}
        onChange={(event) => setOpen(event.currentTarget.checked)}
        error={open.errors?.[0]}
        disabled={disabled}
      />
      {time(opens, 'opens')}
      {time(closes, 'closes')}
    </div>
  )
}

function OfficeHoursFields({
  field,
  hydrated,
  pending,
  timeZones,
  hadOfficeHours,
}: {
  field: Field<BehaviourFormValues['officeHours']>
  hydrated: boolean
  pending: boolean
  timeZones: string[]
  hadOfficeHours: boolean
}) {
  const hours = field.getFieldset()
  const days = hours.days.getFieldset()
  const [enabled, setEnabled] = useState(isOn(hours.enabled.initialValue))
  const [zone, setZone] = useState(text(hours.timeZone.initialValue) ?? DEFAULT_TIME_ZONE)
  const [zoneChosen, setZoneChosen] = useState(hadOfficeHours)
  const [mode, setMode] = useState(text(hours.outsideHours.initialValue) ?? 'message')

  const onEnabledChange = (on: boolean) => {
    setEnabled(on)
    // A first schedule starts in the browser's time zone rather than UTC.
    if (on && !zoneChosen) {
      const local = browserTimeZone(timeZones)
      if (local) setZone(local)
      setZoneChosen(true)
    }
  }

  const schedule = (
    <Stack gap="sm">
      <TimeZoneField
        hydrated={hydrated}
        field={hours.timeZone}
        zones={timeZones}
        value={zone}
        onChange={(value) => {
          setZone(value)
          setZoneChosen(true)
        }}
        disabled={pending}
      />
      <div>
        <Text size="sm" fw={500} id={`${field.id}-schedule`}>
          Weekly schedule
        </Text>
        <Text size="xs" c="dimmed" mb={6}>
          Tick the days the team is in, with the hours they open and close (24-hour clock, HH:MM).
        </Text>
        <div className={classes.schedule} role="group" aria-labelledby={`${field.id}-schedule`}>
          <div className={classes.scheduleHead} aria-hidden>
            <span>Day</span>
            <span>Opens</span>
            <span>Closes</span>
          </div>
          {WEEKDAYS.map((day) => (
            <DayRow key={day} day={day} field={days[day]} hydrated={hydrated} disabled={pending} />
          ))}
        </div>
      </div>
      <Radio.Group
        key={hours.outsideHours.key}
        id={hours.outsideHours.id}
        name={hours.outsideHours.name}
        label="Outside office hours"
        value={mode}
        onChange={setMode}
        error={hours.outsideHours.errors?.[0]}
      >
        <Stack gap={6} mt={6}>
          {OUT_OF_HOURS_MODES.map((value) => (
            <Radio key={value} value={value} label={OUT_OF_HOURS_MODE_LABELS[value]} disabled={pending} />
          ))}
        </Stack>
      </Radio.Group>
      <Collapse in={!hydrated || mode === 'message'}>
        <Textarea
          key={hours.message.key}
          {...fieldProps(hours.message)}
          label="Out-of-hours message"
          description="Sent once per conversation each time the team is closed; the conversation is marked Needs attention."
          autosize
          minRows={2}
          maxRows={5}
          disabled={pending}
        />
      </Collapse>
    </Stack>
  )

  return (
    <Stack gap="sm">
      <Switch
        key={hours.enabled.key}
        id={hours.enabled.id}
        name={hours.enabled.name}
        label="Use office hours"
        description="When off, the agent answers at any time of day."
        defaultChecked={isOn(hours.enabled.initialValue)}
        onChange={(event) => onEnabledChange(event.currentTarget.checked)}
        disabled={pending}
      />
      {/* Switched off, the schedule stays in the form (kept, not posted as office hours) but out of sight. */}
      <Collapse in={!hydrated || enabled}>{schedule}</Collapse>
    </Stack>
  )
}

/** One group of the tab: a titled fieldset, unboxed, spaced like the others (the Knowledge tab's too). */
export function BehaviourGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Fieldset
      legend={legend}
      variant="unstyled"
      pt="sm"
      px={0}
      pb={0}
      m={0}
      className={classes.behaviourGroup}
    >
      {children}
    </Fieldset>
  )
}

/** A message the agent sends: a box that grows with its text. */
const MESSAGE_BOX = { autosize: true, minRows: 2, maxRows: 5 } as const

/**
 * The Behaviour tab: how the agent behaves in a conversation (issue #17). Every field posts without JavaScript;
 * the form schema turns the switches and emptied boxes into the agent's behaviour.
 */
export function BehaviourFields({
  fields,
  hydrated,
  pending,
  timeZones,
  hadOfficeHours,
}: {
  fields: BehaviourFields
  hydrated: boolean
  pending: boolean
  timeZones: string[]
  hadOfficeHours: boolean
}) {
  const input = (field: Parameters<typeof fieldProps>[0]) => ({ ...fieldProps(field), disabled: pending })
  const [handoff, setHandoff] = useState(isOn(fields.handoffEnabled.initialValue))
  return (
    <>
      <input type="hidden" name={BEHAVIOUR_FORM_MARKER} value="true" />
      <NumberInput
        key={fields.burstWaitSeconds.key}
        {...input(fields.burstWaitSeconds)}
        hideControls={!hydrated}
        label="Wait for the customer to finish typing (seconds)"
        description={`From 0 to ${MAX_BURST_WAIT_SECONDS}. Messages sent within the wait get one answer that reads them all; 0 answers each message at once.`}
        min={0}
        max={MAX_BURST_WAIT_SECONDS}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
      />
      <Text size="xs" c="gray.7">
        {BUILT_IN_TEXTS_HINT}
      </Text>
      <BehaviourGroup legend="Handoff to a person">
        <Stack gap="sm">
          <Switch
            key={fields.handoffEnabled.key}
            id={fields.handoffEnabled.id}
            name={fields.handoffEnabled.name}
            label="Hand over when the customer asks for a person or the agent cannot help"
            description="The conversation is paused and marked Needs attention with the reason."
            defaultChecked={isOn(fields.handoffEnabled.initialValue)}
            onChange={(event) => setHandoff(event.currentTarget.checked)}
            disabled={pending}
          />
          <Textarea
            key={fields.handoffMessage.key}
            {...input(fields.handoffMessage)}
            label="Handoff message"
            description={
              handoff || !hydrated
                ? 'What the customer receives when the agent hands over.'
                : 'Kept for when handoff is switched on.'
            }
            {...MESSAGE_BOX}
          />
        </Stack>
      </BehaviourGroup>
      <BehaviourGroup legend="When the agent cannot answer">
        <Stack gap="sm">
          <Textarea
            key={fields.fallbackMessage.key}
            {...input(fields.fallbackMessage)}
            label="Fallback message"
            description="Sent when the model fails or answers nothing. Leave it empty to send nothing; the conversation is still marked Needs attention."
            {...MESSAGE_BOX}
          />
          <Textarea
            key={fields.unreadableMessage.key}
            {...input(fields.unreadableMessage)}
            label="Text-only message"
            description="Sent when a customer sends something the agent cannot read (a voice note, photo, sticker, file or location). Leave it empty to send nothing."
            {...MESSAGE_BOX}
          />
        </Stack>
      </BehaviourGroup>
      <BehaviourGroup legend="Office hours">
        <OfficeHoursFields
          field={fields.officeHours}
          hydrated={hydrated}
          pending={pending}
          timeZones={timeZones}
          hadOfficeHours={hadOfficeHours}
        />
      </BehaviourGroup>
      <BehaviourGroup legend="Language">
        <LanguageFields fields={fields} hydrated={hydrated} pending={pending} />
      </BehaviourGroup>
    </>
  )
}
