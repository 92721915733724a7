import { CloseButton, Group, Modal, Paper, Title } from '@mantine/core'
import { Link, useFetchers, useMatches, useNavigate, useOutlet } from '@remix-run/react'
import { useId, useState } from 'react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import { ignoreInterruption } from '~/lib/shared/navigation'

export type DialogSettings = { title: string; size?: 'md' | 'lg' }

/** A dialog route's `handle`: the title and width its frame shows. */
export const dialogHandle = (dialog: DialogSettings) => ({ dialog })

function dialogOf(handle: unknown): DialogSettings | undefined {
  if (typeof handle !== 'object' || handle === null || !('dialog' in handle)) return undefined
  const { dialog } = handle
  if (typeof dialog !== 'object' || dialog === null || !('title' in dialog)) return undefined
  const { title } = dialog
  if (typeof title !== 'string') return undefined
  return { title, size: 'size' in dialog && dialog.size === 'md' ? 'md' : 'lg' }
}

/**
 * The frame of a screen's dialog routes, rendered where the screen shows its dialogs: the child route in the
 * parent's outlet, as a modal once hydrated and as a section of the page without JavaScript. Closing goes back to
 * `listPath` (not while one of the dialog's forms is being sent). `context` is handed to the child routes.
 */
export function RouteDialog({ listPath, context }: { listPath: string; context?: unknown }) {
  const hydrated = useHydrated()
  const titleId = useId()
  const navigate = useNavigate()
  const outlet = useOutlet(context)
  const dialog = useMatches()
    .map((match) => dialogOf(match.handle))
    .findLast((settings) => settings !== undefined)
  const busy = useFetchers().some(
    (fetcher) => fetcher.state === 'submitting' && fetcher.formAction?.startsWith(`${listPath}/`),
  )
  // The title stays while the modal closes.
  const [shown, setShown] = useState(dialog)
  if (dialog && (dialog.title !== shown?.title || dialog.size !== shown.size)) setShown(dialog)

  if (!hydrated) {
    if (!outlet || !dialog) return null
    return (
      <Paper component="section" withBorder shadow="sm" p="lg" mb="lg" aria-labelledby={titleId}>
        <Group justify="space-between" mb="md" wrap="nowrap">
          <Title order={2} size="h3" id={titleId}>
            {dialog.title}
          </Title>
          <CloseButton component={Link} to={listPath} aria-label="Close" />
        </Group>
        {outlet}
      </Paper>
    )
  }

  // A child route without a dialog (an action only) opens nothing.
  const open = outlet !== null && dialog !== undefined
  const close = () => {
    if (!busy) ignoreInterruption(navigate(listPath, { preventScrollReset: true }))
  }
  return (
    <Modal
      opened={open}
      onClose={close}
      title={shown?.title ?? ''}
      size={shown?.size ?? 'lg'}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      // The content belongs to the route left behind: it is gone at once, so the frame goes too.
      transitionProps={{ exitDuration: 0 }}
      centered
    >
      {open ? outlet : null}
    </Modal>
  )
}
