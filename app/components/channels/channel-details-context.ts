import type { useDialogFetcher } from '~/components/hooks/use-dialog-fetcher'
import type { ChannelItem } from './types'

/**
 * What each of the dialog's changes answers (the routes under the dialog's URL): which section reports it, the
 * green alert's text when the spec has one, or the red alert's.
 */
export type ChangeAnswer = {
  section: 'webhook' | 'agent' | 'conversations' | 'health'
  message: string | null
  error: string | null
  /** A line under the message: what the change also did (going live). */
  note?: string | null
  /** What the change could not also do, though it went through. */
  warning?: string | null
}

/** What the Channel Details sections share: the channel and the one fetcher all their changes go through. */
export type ChannelDetailsContext = ReturnType<typeof useDialogFetcher<ChangeAnswer>> & {
  channel: ChannelItem
}
