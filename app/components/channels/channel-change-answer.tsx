import { useOutletContext } from '@remix-run/react'
import type { ComponentProps } from 'react'
import { ChannelDetailsPanel } from './channel-details-panel'

type Details = Omit<ComponentProps<typeof ChannelDetailsPanel>, 'noScriptData'>

/**
 * Without JavaScript, a change made in the Channel Details dialog answers with the page of its own route (below the
 * dialog's): the details again, with the change's message. The dialog's route hands its data down as the outlet
 * context.
 */
export function ChannelChangeAnswer({
  answer,
}: {
  answer: ComponentProps<typeof ChannelDetailsPanel>['noScriptData']
}) {
  const details = useOutletContext<Details>()
  return <ChannelDetailsPanel {...details} noScriptData={answer} />
}
