import { isDialogChange as isUrlDialogChange } from '~/lib/url-dialog'

/**
 * The Channels screen's dialogs live in the URL (?dialog=details&channel=<id>), so that links open them, the back
 * button closes them, and a browser without JavaScript gets the same dialog rendered into the page.
 */
export const CHANNELS_PATH = '/channels'

export const CHANNEL_DIALOGS = ['connect-telegram', 'details', 'delete'] as const
export type ChannelDialogKind = (typeof CHANNEL_DIALOGS)[number]
export type ChannelDialog =
  | { kind: 'connect-telegram' }
  | { kind: Exclude<ChannelDialogKind, 'connect-telegram'>; channelId: string }

const isDialogKind = (value: string | null): value is ChannelDialogKind =>
  CHANNEL_DIALOGS.some((kind) => kind === value)

export function parseChannelDialog(search: string): ChannelDialog | null {
  const params = new URLSearchParams(search)
  const kind = params.get('dialog')
  if (!isDialogKind(kind)) return null
  if (kind === 'connect-telegram') return { kind }
  const channelId = params.get('channel')
  return channelId ? { kind, channelId } : null
}

export function channelDialogHref(kind: 'connect-telegram'): string
export function channelDialogHref(
  kind: Exclude<ChannelDialogKind, 'connect-telegram'>,
  channelId: string,
): string
export function channelDialogHref(kind: ChannelDialogKind, channelId?: string): string {
  const params = new URLSearchParams({ dialog: kind })
  if (channelId) params.set('channel', channelId)
  return `${CHANNELS_PATH}?${params}`
}

export const dialogKey = (dialog: ChannelDialog) =>
  dialog.kind === 'connect-telegram' ? dialog.kind : `${dialog.kind}:${dialog.channelId}`

/** Opening or closing a dialog of this screen. */
export const isDialogChange = (
  from: { pathname: string; search: string },
  to: { pathname: string; search: string },
) => isUrlDialogChange(from, to, 'channel')
