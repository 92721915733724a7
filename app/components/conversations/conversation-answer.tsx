import { useOutletContext } from '@remix-run/react'
import type { ComponentProps } from 'react'
import type { ComposerAnswer } from './composer'
import { ConversationView } from './conversation-view'

/**
 * Without JavaScript, an action of the open conversation answers with the page of its own route (below the
 * conversation's): the conversation again, with the action's answer. The conversation's route hands its data
 * down as the outlet context.
 */
export function ConversationAnswer({ answer }: { answer: ComposerAnswer }) {
  const view = useOutletContext<Omit<ComponentProps<typeof ConversationView>, 'answer'>>()
  return <ConversationView {...view} answer={answer} />
}
