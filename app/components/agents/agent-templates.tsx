import { Button, Input, Stack } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useState } from 'react'
import { AGENT_TEMPLATES, readableIdFrom } from '~/lib/agents/templates'
import classes from './agents.module.css'
import { newAgentPath } from './paths'
import { AGENT_FORM_TEXTS } from './texts'

/**
 * The templates above Create New Agent: links to the same dialog with `?template=`, so that the choice works
 * without JavaScript and survives a reload. The form starts again from the template's words.
 */
export function TemplatePicker({ chosen, disabled }: { chosen: string | undefined; disabled: boolean }) {
  const choices = [
    ...AGENT_TEMPLATES.map(({ id, label }) => ({ id, label })),
    { id: undefined, label: AGENT_FORM_TEXTS.blank },
  ]
  return (
    <Stack gap={6} component="nav" aria-label={AGENT_FORM_TEXTS.templatesLabel}>
      <Input.Label component="span">{AGENT_FORM_TEXTS.templatesLabel}</Input.Label>
      <Input.Description>{AGENT_FORM_TEXTS.templatesHint}</Input.Description>
      <div className={classes.templates}>
        {choices.map(({ id, label }) => {
          const current = id === chosen
          return (
            <Button
              key={label}
              component={Link}
              to={newAgentPath(id)}
              replace
              preventScrollReset
              size="compact-sm"
              radius="xl"
              variant={current ? 'filled' : 'default'}
              aria-current={current ? 'true' : undefined}
              data-disabled={disabled || undefined}
              onClick={disabled ? (event) => event.preventDefault() : undefined}
            >
              {label}
            </Button>
          )
        })}
      </div>
    </Stack>
  )
}

/**
 * Creating: the readable ID follows the name as it is typed (`followName`), until the owner types an ID of their
 * own (`type`); from then on it is theirs.
 */
export function useReadableIdFromName(initial: string) {
  const [value, setValue] = useState(initial)
  const [own, setOwn] = useState(false)
  return {
    value,
    followName: (name: string) => {
      if (!own) setValue(name.trim() ? readableIdFrom(name) : '')
    },
    type: (id: string) => {
      setOwn(true)
      setValue(id)
    },
  }
}
