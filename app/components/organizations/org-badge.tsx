import { Avatar } from '@mantine/core'

/** The first-letter badge of an organization. */
export function OrgBadge({ name, size = 28 }: { name: string; size?: number }) {
  return (
    <Avatar size={size} radius="sm" color="indigo" variant="filled" aria-hidden>
      {name.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  )
}
