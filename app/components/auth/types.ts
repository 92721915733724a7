import type { SubmissionResult } from '@conform-to/react'

export type LoginIntent = 'sign-in' | 'sign-up' | 'reset' | 'google'

/** What the login action answers when it does not redirect. */
export type LoginActionData = {
  intent: LoginIntent | null
  result: SubmissionResult<string[]>
  resetSent?: boolean
}

export type FirebaseClientConfig = {
  apiKey: string
  authDomain: string
  projectId: string
  emulatorUrl: string | null
}

export function resultFor(data: LoginActionData | undefined, intent: LoginIntent) {
  return data?.intent === intent ? data.result : undefined
}
