import { Anchor, Badge, Group, Stack, Text, Textarea } from '@mantine/core'
import { IconChevronRight } from '@tabler/icons-react'
import { Link, useFetcher } from '@remix-run/react'
import { DateTime } from '~/components/date-time'
import { PendingButton } from '~/components/forms/pending-button'
import { FetcherSavedNotice } from '~/components/forms/saved-notice'
import { CONTACT_NOTES_MAX_LENGTH, languageName, type Contact } from '~/lib/conversations/contact'
import { CONVERSATION_STATUS_LABELS, type ConversationDetail } from '~/lib/conversations/conversations'
import { LabelsForm } from './labels-form'
import classes from './conversations.module.css'
import { conversationPath } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

function NotesForm({ contact }: { contact: Contact }) {
  const fetcher = useFetcher<{ error?: string | null }>()
  return (
    // Keyed by the saved notes: a change elsewhere (another tab, the API) shows here too.
    <fetcher.Form
      method="post"
      action={`${conversationPath(contact.conversationId)}/contact`}
      key={contact.notes}
    >
      <Stack gap={6}>
        <Textarea
          name="notes"
          label={T.notes}
          placeholder={T.notesPlaceholder}
          defaultValue={contact.notes}
          maxLength={CONTACT_NOTES_MAX_LENGTH}
          autosize
          minRows={2}
          maxRows={6}
          size="sm"
          error={fetcher.data?.error ?? undefined}
        />
        <Group gap="xs">
          <PendingButton
            pending={fetcher.state !== 'idle'}
            pendingLabel={T.saving}
            size="xs"
            variant="default"
          >
            {T.saveNotes}
          </PendingButton>
          <FetcherSavedNotice fetcher={fetcher}>{T.notesSaved}</FetcherSavedNotice>
        </Group>
      </Stack>
    </fetcher.Form>
  )
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className={classes.fact}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** What is known of the customer, and the customer's other conversations. */
function ContactFacts({ contact }: { contact: Contact }) {
  return (
    <Stack gap="xs">
      <dl className={classes.facts} aria-label={T.contactFacts}>
        {contact.handle ? <Fact term={T.handle}>{contact.handle}</Fact> : null}
        {contact.phone ? <Fact term={T.phone}>{contact.phone}</Fact> : null}
        {contact.language ? <Fact term={T.language}>{languageName(contact.language)}</Fact> : null}
        <Fact term={T.firstSeen}>
          <DateTime value={contact.firstSeenAt} />
        </Fact>
        <Fact term={T.conversationCount}>{contact.conversationCount}</Fact>
      </dl>
      {contact.otherConversations.length > 0 ? (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {T.otherConversations}
          </Text>
          {contact.otherConversations.map((other) => (
            <Anchor key={other.id} component={Link} to={conversationPath(other.id)} size="sm">
              <Group gap={4} wrap="nowrap" component="span">
                <span>{other.channel.name}</span>
                <Text span size="xs" c="gray.7">
                  · {CONVERSATION_STATUS_LABELS[other.status]} · <DateTime value={other.lastMessageAt} time />
                </Text>
                <IconChevronRight size={14} aria-hidden />
              </Group>
            </Anchor>
          ))}
        </Stack>
      ) : null}
    </Stack>
  )
}

/**
 * The customer beside the chat (docs/decisions/062): a disclosure, closed by default so that the transcript keeps
 * the room, that shows its labels while closed. It works with no script and from the keyboard.
 */
export function ContactPanel({
  contact,
  conversation,
  customer,
}: {
  contact: Contact
  conversation: ConversationDetail
  customer: string
}) {
  return (
    <details className={classes.contact}>
      <summary>
        <Text span size="sm" fw={600}>
          {T.aboutCustomer(customer)}
        </Text>
        {contact.labels.map((label) => (
          <Badge key={label} size="sm" variant="light" radius="sm" style={{ textTransform: 'none' }}>
            {label}
          </Badge>
        ))}
      </summary>
      <div className={classes.contactBody}>
        <ContactFacts contact={contact} />
        <Stack gap="sm">
          <LabelsForm conversation={conversation} />
          <NotesForm contact={contact} />
        </Stack>
      </div>
    </details>
  )
}
