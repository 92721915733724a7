import type { Submission } from '@conform-to/react'

/**
 * The answer to a submission that passed its schema but that the service refused: the service's field errors on
 * their fields when it named some, else `formError` for the whole form.
 */
export function replyRefused<Value>(
  submission: Submission<Value>,
  { fieldErrors }: { fieldErrors?: Record<string, string[]> },
  formError: string,
  hideFields?: string[],
) {
  return fieldErrors
    ? submission.reply({ fieldErrors, hideFields })
    : submission.reply({ formErrors: [formError], hideFields })
}

/** The first message of a form's errors (zod's, by field), if any. */
export const firstMessage = (errors: Record<string, string[] | null> | null | undefined) =>
  Object.values(errors ?? {}).find((messages) => messages?.length)?.[0]

/** The spec's message for a failed connect, with the particular reason after it when there is one. */
export function connectFailure(
  fallback: string,
  { reason, fieldErrors }: { reason: string; fieldErrors?: Record<string, string[]> },
) {
  const detail = reason === fallback ? firstMessage(fieldErrors) : reason
  return detail && detail !== fallback ? `${fallback}: ${detail}` : fallback
}
