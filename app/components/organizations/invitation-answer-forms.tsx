import { Button, Group } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { InvitationToAnswer } from '~/lib/organization-schemas'

/** Accept and Decline as plain forms: the /organization page's answer, which works without JavaScript. */
export function InvitationAnswerForms({ invitation }: { invitation: InvitationToAnswer }) {
  const name = invitation.organizationName
  return (
    <Group gap="xs" wrap="nowrap">
      <Form method="post" action="/organization">
        <input type="hidden" name="invitationId" value={invitation.id} />
        <input type="hidden" name="redirectTo" value="/" />
        <Button
          type="submit"
          name="intent"
          value="accept-invitation"
          size="xs"
          aria-label={`Accept the invitation to ${name}`}
        >
          Accept
        </Button>
      </Form>
      <Form method="post" action="/organization">
        <input type="hidden" name="invitationId" value={invitation.id} />
        <input type="hidden" name="redirectTo" value="/organization" />
        <Button
          type="submit"
          name="intent"
          value="decline-invitation"
          size="xs"
          variant="default"
          aria-label={`Decline the invitation to ${name}`}
        >
          Decline
        </Button>
      </Form>
    </Group>
  )
}
