import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { FormError } from '~/components/auth/form-error'
import { PendingButton } from '~/components/forms/pending-button'
import { channelDisplayName } from '~/lib/channels/channels'
import type { DialogSubmission } from '~/components/hooks/use-dialog-fetcher'
import { loadedFacebookSdk } from './facebook-sdk'
import { logOutOfFacebook } from './meta-connect'
import { CHANNEL_UI_TEXTS, DELETE_CLOSE_DELAY_MS } from './texts'
import { CHANNELS_PATH, channelPath } from './paths'
import type { ChannelItem } from './types'
import { ignoreInterruption } from '~/lib/shared/navigation'

/** The delete confirmation. After a success it says so, then closes after a second (spec section 9). */
export function DeleteChannelPanel({
  channel,
  submission,
}: {
  channel: ChannelItem
  /**
   * Whether the channel is gone; `warning` when its platform could not be told (its webhook may linger there).
   */
  submission: DialogSubmission<{ deleted: boolean; warning: string | null; error: string | null }>
}) {
  const navigate = useNavigate()
  const { hydrated, FormComponent, response: answer, settled: done, pending } = submission
  const deleted = answer?.deleted === true
  const loggedOut = useRef(false)
  const isFacebook = channel.platformName === 'facebook'

  useEffect(() => {
    if (!done?.deleted) return
    // A Facebook disconnect also ends this page's SDK session; a failure there is only warned about.
    if (isFacebook && !loggedOut.current) {
      loggedOut.current = true
      void loadedFacebookSdk().then(logOutOfFacebook)
    }
    const timer = setTimeout(
      () => ignoreInterruption(navigate(CHANNELS_PATH, { preventScrollReset: true })),
      DELETE_CLOSE_DELAY_MS,
    )
    return () => clearTimeout(timer)
  }, [done, navigate, isFacebook])

  const name = channelDisplayName(channel)
  const { before, after } = CHANNEL_UI_TEXTS.deleteConfirm
  return (
    <FormComponent method="post" aria-label="Delete Channel">
      <Stack gap="md">
        <FormError message={answer?.error ?? undefined} />
        {deleted ? (
          <Alert color="green" variant="light" role="status">
            {CHANNEL_UI_TEXTS.deleted}
          </Alert>
        ) : null}
        {answer?.warning ? (
          <Alert color="yellow" variant="light">
            {CHANNEL_UI_TEXTS.deleteWarning(answer.warning)}
          </Alert>
        ) : null}
        <Text>
          {before}
          <Text span fw={700}>
            {name}
          </Text>
          {after}
        </Text>
        {hydrated ? null : <input type="hidden" name="noscript" value="true" />}
        <Group justify="flex-end">
          {pending || deleted ? (
            <Button variant="default" disabled>
              Cancel
            </Button>
          ) : (
            <Button variant="default" component={Link} to={channelPath(channel.id)} preventScrollReset>
              Cancel
            </Button>
          )}
          <PendingButton pending={pending} pendingLabel="Deleting..." color="red.7" disabled={deleted}>
            Delete Channel
          </PendingButton>
        </Group>
      </Stack>
    </FormComponent>
  )
}
