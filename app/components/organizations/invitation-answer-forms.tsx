import { Button, Group } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { InvitationToAnswer } from '~/lib/organizations/schemas'

const ANSWERS = [
  { intent: 'accept-invitation', label: 'Accept', verb: 'Accept', redirectTo: '/', variant: 'filled' },
  {
    intent: 'decline-invitation',
    label: 'Decline',
    verb: 'Decline',
    redirectTo: '/organization',
    variant: 'default',
  },
] as const

/** Accept and Decline as plain forms: the /organization page's answer, which works without JavaScript. */
export function InvitationAnswerForms({ invitation }: { invitation: InvitationToAnswer }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {ANSWERS.map((answer) => (
        <Form key={answer.intent} method="post" action="/organization">
          <input type="hidden" name="invitationId" value={invitation.id} />
          <input type="hidden" name="redirectTo" value={answer.redirectTo} />
          <Button
            type="submit"
            name="intent"
            value={answer.intent}
            size="xs"
            variant={answer.variant}
            aria-label={`${answer.verb} the invitation to ${invitation.organizationName}`}
          >
            {answer.label}
          </Button>
        </Form>
      ))}
    </Group>
  )
}
