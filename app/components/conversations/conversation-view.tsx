import { ActionIcon, Alert, Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconArrowLeft, IconCheck } from '@tabler/icons-react'
import { Link, useLocation, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useId, useRef } from 'react'
import { DateTime } from '~/components/date-time'
import { PlatformIcon } from '~/components/channels/platform'
import {
  MAX_SHOWN_MESSAGES,
  MESSAGE_PAGE_SIZE,
  type ConversationDetail,
  type ReplyWindow,
} from '~/lib/conversations/conversations'
import { ActionButton } from './action-button'
import type { MemberOption } from '~/lib/organizations/schemas'
import type { SavedReplyItem } from '~/lib/conversations/saved-replies'
import { languageName, type Contact } from '~/lib/conversations/contact'
import { attachmentPlatform } from '~/lib/conversations/attachments'
import { AssigneePicker } from './assignee-picker'
import { ContactPanel } from './contact-panel'
import { SnoozeMenu } from './snooze-menu'
import { Composer, type ComposerAnswer } from './composer'
import { customerLabel } from './conversation-list'
import classes from './conversations.module.css'
import { MessageBubble } from './message-bubble'
import { CONVERSATIONS_PATH, conversationPath } from './paths'
import { StateBadge, StatusBadge } from './state-badge'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** Pause AI / Resume AI. */
function TakeoverButton({ conversation }: { conversation: ConversationDetail }) {
  const paused = conversation.state !== 'ai'
  return (
    <ActionButton
      action={`${conversationPath(conversation.id)}/${paused ? 'resume' : 'pause'}`}
      label={paused ? T.resumeAi : T.pauseAi}
      pendingLabel={paused ? T.resuming : T.pausing}
      size="xs"
      variant={paused ? 'filled' : 'default'}
    />
  )
}

/** Resolve / Reopen, also the key `e`. */
function StatusButton({ conversation }: { conversation: ConversationDetail }) {
  const resolved = conversation.status !== 'open'
  return (
    <ActionButton
      action={`${conversationPath(conversation.id)}/status`}
      fields={{ status: resolved ? 'open' : 'resolved' }}
      label={resolved ? T.reopen : T.resolve}
      pendingLabel={T.saving}
      shortcut="e"
      size="xs"
      variant="default"
      leftSection={resolved ? undefined : <IconCheck size={14} aria-hidden />}
    />
  )
}

function PauseLine({ conversation }: { conversation: ConversationDetail }) {
  if (conversation.state === 'ai' && !conversation.snoozedUntil) return null
  return (
    <Text size="sm" c="gray.8">
      {conversation.snoozedUntil ? (
        <>
          {T.snoozedUntil} <DateTime value={conversation.snoozedUntil} time />.{' '}
        </>
      ) : null}
      {conversation.state === 'ai' ? null : conversation.aiPausedUntil ? (
        <>
          {T.aiResumesAt} <DateTime value={conversation.aiPausedUntil} time />.
        </>
      ) : conversation.state === 'paused' ? (
        T.pausedUntilResumed
      ) : null}
    </Text>
  )
}

/**
 * "Load older messages": a link (it works with no script), followed by itself once scrolled into view, so older
 * messages come as a person scrolls up. The transcript's reversed scroll keeps the messages in view in place.
 */
function LoadOlder({ to }: { to: string }) {
  const ref = useRef<HTMLAnchorElement>(null)
  const navigate = useNavigate()
  const navigation = useNavigation()
  const idle = navigation.state === 'idle'
  useEffect(() => {
    const link = ref.current
    if (!link || !idle || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return
      observer.disconnect()
      navigate(to, { preventScrollReset: true, replace: true })
    })
    observer.observe(link)
    return () => observer.disconnect()
  }, [to, idle, navigate])
  return (
    <Center py="xs">
      <Anchor ref={ref} component={Link} to={to} size="sm" preventScrollReset replace>
        {T.loadOlder}
      </Anchor>
    </Center>
  )
}

/** The open conversation: who and where, its state and takeover, the transcript, and the composer. */
export function ConversationView({
  conversation,
  contact,
  members,
  savedReplies,
  replyWindow,
  composerKey,
  answer,
}: {
  conversation: ConversationDetail
  contact: Contact
  members: MemberOption[]
  savedReplies: SavedReplyItem[]
  replyWindow: ReplyWindow
  composerKey: string
  answer?: ComposerAnswer
}) {
  const { search } = useLocation()
  const titleId = useId()
  const base = conversationPath(conversation.id)
  const customer = customerLabel(conversation.customer)
  // The list's filters stay in the query string; `show` is this view's own (how many messages it shows).
  const query = new URLSearchParams(search)
  const older = new URLSearchParams(query)
  older.set('show', String(Math.min(conversation.messages.length + MESSAGE_PAGE_SIZE, MAX_SHOWN_MESSAGES)))
  const olderSearch = `?${older}`
  query.delete('show')
  const back = `${CONVERSATIONS_PATH}${query.size ? `?${query}` : ''}`
  return (
    <Paper withBorder p="md" component="article" aria-labelledby={titleId} className={classes.conversation}>
      <Stack gap="md" style={{ flex: '1 1 auto', minHeight: 0 }}>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Group gap="sm" wrap="nowrap">
            {/* On a phone the list is a page of its own: the way back sits beside the name. */}
            <ActionIcon
              component={Link}
              to={back}
              hiddenFrom="md"
              variant="subtle"
              size="lg"
              aria-label={T.back}
            >
              <IconArrowLeft size={18} aria-hidden />
            </ActionIcon>
            <PlatformIcon platform={conversation.channel.platformName} size={36} />
            <Stack gap={0}>
              <Title order={2} size="h4" id={titleId}>
                {customer}
              </Title>
              <Text size="sm" c="gray.7">
                {conversation.channel.name}
                {conversation.customer.name ? ` · ${conversation.customer.platformId}` : ''}
                {conversation.customer.language ? ` · ${languageName(conversation.customer.language)}` : ''}
              </Text>
            </Stack>
          </Group>
          <Stack gap={4} align="flex-end">
            <Group gap="xs" justify="flex-end">
              {conversation.status !== 'open' ? <StatusBadge status={conversation.status} /> : null}
              <StateBadge state={conversation.state} />
              <TakeoverButton conversation={conversation} />
              <StatusButton conversation={conversation} />
              {conversation.status === 'open' ? <SnoozeMenu conversation={conversation} /> : null}
            </Group>
            <AssigneePicker conversation={conversation} members={members} />
            <PauseLine conversation={conversation} />
            <Anchor href={`${base}/transcript.txt`} size="xs" download>
              {T.downloadTranscript}
            </Anchor>
          </Stack>
        </Group>
        <ContactPanel contact={contact} conversation={conversation} customer={customer} />
        {conversation.attentionReason ? (
          <Alert color="red" variant="light" title="Needs attention">
            {conversation.attentionReason}
          </Alert>
        ) : null}
        <div className={classes.scroller} tabIndex={0} role="region" aria-label={T.transcriptLabel}>
          <div>
            {conversation.hasOlder ? <LoadOlder to={`${base}${olderSearch}`} /> : null}
            {conversation.messages.length === 0 ? (
              <Text c="gray.7">{T.emptyTranscript}</Text>
            ) : (
              <Stack
                component="ol"
                className={classes.transcript}
                aria-label="Messages"
                style={{ padding: 0, margin: 0 }}
              >
                {conversation.messages.map((message) => (
                  <MessageBubble
                    key={message.id}
                    message={message}
                    customer={customer}
                    retryAction={`${base}/retry`}
                    mediaPath={`${base}/media/${message.id}`}
                  />
                ))}
              </Stack>
            )}
          </div>
        </div>
        <Composer
          action={`${base}/reply`}
          window={replyWindow}
          initialKey={composerKey}
          answer={answer}
          savedReplies={savedReplies}
          customerName={conversation.customer.name}
          platform={attachmentPlatform(conversation.channel.platformName)}
        />
      </Stack>
    </Paper>
  )
}
