import { Kbd, Modal, Table } from '@mantine/core'
import { useHotkeys } from '@mantine/hooks'
import { useNavigate } from '@remix-run/react'
import { useState } from 'react'
import { conversationPath } from './paths'
import { CONVERSATION_UI_TEXTS as T } from './texts'

/** The inbox's keys, as the "?" dialog lists them. `e` and `a` are the Resolve and Assign to me buttons' own (ActionButton's shortcut). */
export const INBOX_SHORTCUTS = [
  { keys: ['j'], what: 'Next conversation' },
  { keys: ['k'], what: 'Previous conversation' },
  { keys: ['r'], what: 'Reply: go to the reply box' },
  { keys: ['e'], what: 'Resolve, or reopen' },
  { keys: ['a'], what: 'Assign to me' },
  { keys: ['Ctrl', 'Enter'], what: 'Send the reply' },
  { keys: ['Ctrl', 'B'], what: 'Show or hide the sidebar' },
  { keys: ['?'], what: 'This list' },
] as const

/** The reply box the `r` key goes to (the composer marks its field with it). */
export const COMPOSER_FIELD = 'data-composer'

/**
 * The inbox's keys (not while typing in a field): j / k open the next / previous conversation of the list,
 * keeping its filters; r goes to the reply box; ? lists them all.
 */
export function InboxShortcuts({ ids, openId, search }: { ids: string[]; openId?: string; search: string }) {
  const navigate = useNavigate()
  const [helpOpen, setHelpOpen] = useState(false)
  const step = (by: number) => {
    const at = openId ? ids.indexOf(openId) : -1
    const next = ids[Math.min(Math.max(at + by, 0), ids.length - 1)]
    if (next && next !== openId) navigate(`${conversationPath(next)}${search}`)
  }
  useHotkeys([
    ['j', () => step(1)],
    ['k', () => step(-1)],
    ['r', () => document.querySelector<HTMLElement>(`[${COMPOSER_FIELD}]`)?.focus()],
    // "?" is Shift and / on most keyboards, a key of its own on some.
    ['shift+?', () => setHelpOpen(true)],
    ['?', () => setHelpOpen(true)],
  ])
  return (
    <Modal opened={helpOpen} onClose={() => setHelpOpen(false)} title={T.shortcutsTitle} size="md">
      <Table>
        <Table.Tbody>
          {INBOX_SHORTCUTS.map(({ keys, what }) => (
            <Table.Tr key={what}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 ? ' + ' : null}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  )
}
