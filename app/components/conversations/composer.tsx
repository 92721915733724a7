import { Alert, Anchor, Group, Stack, Text, Textarea } from '@mantine/core'
import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { PendingButton } from '~/components/forms/pending-button'
import type { AttachmentPlatform } from '~/lib/conversations/attachments'
import { AttachmentPicker, useAttachment } from './attachment-picker'
import { PERSON_REPLY_MAX_LENGTH, type ReplyWindow } from '~/lib/conversations/conversations'
import type { SavedReplyItem } from '~/lib/conversations/saved-replies'
import { COMPOSER_FIELD } from './inbox-shortcuts'
import { SAVED_REPLIES_PATH } from './paths'
import { useSavedReplyPicker } from './saved-reply-picker'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** A reply route's answer: why it was refused, and the text to write again. */
export type ComposerAnswer = { error: string | null; text?: string } | undefined

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Date.now())

/**
 * A person's reply. The idempotency key comes with the page (a form sent twice without JavaScript sends once)
 * and is renewed in the browser after each send; the text stays while live updates reload the page.
 */
export function Composer({
  action,
  window,
  initialKey,
  answer,
  savedReplies = [],
  customerName = null,
  platform,
}: {
  action: string
  /** The conversation's platform: its limits on pictures and files, checked before sending. */
  platform: AttachmentPlatform
  window: ReplyWindow
  initialKey: string
  /** The organization's saved replies, put in by typing `/`, and the customer's name they may use. */
  savedReplies?: SavedReplyItem[]
  customerName?: string | null
  /** Without JavaScript: the answer of the reply route that rendered this page. */
  answer?: ComposerAnswer
}) {
  const fetcher = useFetcher<ComposerAnswer>()
  const [clientKey, setClientKey] = useState(initialKey)
  const [text, setText] = useState(answer?.text ?? '')
  const wasSubmitting = useRef(false)
  const field = useRef<HTMLTextAreaElement>(null)
  const picker = useSavedReplyPicker({ replies: savedReplies, customerName, text, setText, field })
  const attachment = useAttachment(platform)
  const clearAttachment = attachment.clear
  const pending = fetcher.state !== 'idle'
  // The last answer's refusal stands while the file it was sent with is chosen (a refused file's reason is not
  // the next one's).
  const [sentFile, setSentFile] = useState(attachment.file)
  const refusal = attachment.file === sentFile ? (fetcher.data?.error ?? answer?.error) : undefined
  const error = attachment.error ?? refusal ?? null

  useEffect(() => {
    if (fetcher.state === 'submitting') {
      wasSubmitting.current = true
      setSentFile(attachment.file)
    }
    if (fetcher.state === 'idle' && wasSubmitting.current) {
      wasSubmitting.current = false
      if (!fetcher.data?.error) {
        setText('')
        clearAttachment()
        setClientKey(newKey())
      }
    }
  }, [fetcher.state, fetcher.data, clearAttachment, attachment.file])

  if (!window.open) {
    return (
      <Alert color="yellow" variant="light" title="Replies are closed">
        {window.reason}
      </Alert>
    )
  }
  return (
    <fetcher.Form
      method="post"
      action={action}
      encType="multipart/form-data"
      onSubmit={(event) => {
        if (attachment.error) event.preventDefault()
      }}
    >
      <input type="hidden" name="clientKey" value={clientKey} />
      <Stack gap="xs">
        {picker.list}
        <Textarea
          ref={field}
          name="text"
          {...{ [COMPOSER_FIELD]: true }}
          {...picker.fieldProps}
          label={T.composerLabel}
          placeholder={T.composerPlaceholder}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={PERSON_REPLY_MAX_LENGTH}
          required={!attachment.file}
          value={text}
          onChange={picker.onChange}
          onKeyDown={(event) => {
            picker.fieldProps.onKeyDown(event)
            if (event.defaultPrevented) return
            // Ctrl/Cmd+Enter sends, as in other inboxes; Enter alone is a new line.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
              event.currentTarget.form?.requestSubmit()
          }}
          error={error}
        />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="xs" c="gray.7">
            {window.tag === 'HUMAN_AGENT' ? T.humanAgentHint : T.composerHint}{' '}
            {savedReplies.length > 0 ? T.savedRepliesHint : null}{' '}
            <Anchor component={Link} to={SAVED_REPLIES_PATH} size="xs">
              {T.manageSavedReplies}
            </Anchor>
          </Text>
          <Group gap="xs" wrap="wrap" justify="flex-end">
            <AttachmentPicker attachment={attachment} />
            <PendingButton pending={pending} pendingLabel={T.sending}>
              {T.send}
            </PendingButton>
          </Group>
        </Group>
      </Stack>
    </fetcher.Form>
  )
}
