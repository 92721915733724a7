import { Button, type ButtonProps } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { ChannelHealthReason } from '~/lib/channels/health'

/** The action that fixes a health reason (Reconnect, Switch on, ...), as a link to where it is done. */
export function HealthActionButton({
  action,
  ...props
}: { action: ChannelHealthReason['action'] } & Pick<ButtonProps, 'mt'>) {
  return (
    <Button component={Link} to={action.href} size="compact-sm" variant="light" color="orange.9" {...props}>
      {action.label}
    </Button>
  )
}
