import { Paper, Text, UnstyledButton } from '@mantine/core'
import { useId, useState, type KeyboardEvent, type RefObject } from 'react'
import { fillSavedReply, searchSavedReplies, type SavedReplyItem } from '~/lib/conversations/saved-replies'
import classes from './conversations.module.css'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** A `/` typed at the start of the text or after a space, and the shortcut after it, up to the caret. */
const SLASH = /(^|\s)\/([\p{L}\p{N}-]*)$/u
const SHOWN = 8

type Field = RefObject<HTMLTextAreaElement | null>

/**
 * Saved replies in the composer: typing `/` lists those whose shortcut (or text) matches what follows it; the
 * arrows choose one, Enter or Tab puts it in place of the `/...`, with the customer's first name filled in;
 * Escape closes the list. The field is a combobox of the list, for screen readers.
 */
export function useSavedReplyPicker({
  replies,
  customerName,
  text,
  setText,
  field,
}: {
  replies: SavedReplyItem[]
  customerName: string | null
  text: string
  setText: (text: string) => void
  field: Field
}) {
  const listId = useId()
  const [caret, setCaret] = useState(0)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const match = replies.length > 0 ? SLASH.exec(text.slice(0, caret)) : null
  const query = match?.[2] ?? ''
  const found = match ? searchSavedReplies(replies, query).slice(0, SHOWN) : []
  const open = found.length > 0 && dismissed !== `${caret}:${text}`
  const current = Math.min(active, found.length - 1)

  const insert = (reply: SavedReplyItem) => {
    if (!match) return
    const start = caret - query.length - 1
    const filled = fillSavedReply(reply.text, customerName)
    const next = text.slice(0, start) + filled + text.slice(caret)
    setText(next)
    const at = start + filled.length
    setCaret(at)
    requestAnimationFrame(() => field.current?.setSelectionRange(at, at))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((current + step + found.length) % found.length)
    } else if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      event.preventDefault()
      insert(found[current])
    } else if (event.key === 'Escape') {
      event.preventDefault()
      setDismissed(`${caret}:${text}`)
    }
  }

  const fieldProps = {
    role: 'combobox',
    'aria-autocomplete': 'list' as const,
    'aria-expanded': open,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? `${listId}-${current}` : undefined,
    onKeyDown,
    onSelect: (event: { currentTarget: HTMLTextAreaElement }) => {
      setCaret(event.currentTarget.selectionStart)
      setActive(0)
    },
  }

  const list = open ? (
    <Paper withBorder shadow="sm" p={4} className={classes.savedReplies}>
      <Text size="xs" c="gray.7" px={6} pb={2} id={`${listId}-label`}>
        {T.savedReplies}
      </Text>
      <div role="listbox" id={listId} aria-labelledby={`${listId}-label`}>
        {found.map((reply, index) => (
          <UnstyledButton
            key={reply.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === current}
            tabIndex={-1}
            className={classes.savedReply}
            // Before the field loses its focus.
            onMouseDown={(event) => {
              event.preventDefault()
              insert(reply)
            }}
          >
            <Text size="sm" fw={600} span>
              /{reply.shortcut}
            </Text>{' '}
            <Text size="sm" c="gray.8" span className={classes.preview}>
              {reply.text}
            </Text>
          </UnstyledButton>
        ))}
      </div>
    </Paper>
  ) : null

  /** The field's onChange: its text, and where the caret is now. */
  const onChange = (event: { currentTarget: HTMLTextAreaElement }) => {
    setText(event.currentTarget.value)
    setCaret(event.currentTarget.selectionStart)
    setActive(0)
  }

  return { fieldProps, onChange, list }
}
