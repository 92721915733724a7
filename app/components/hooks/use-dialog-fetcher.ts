import { Form, useActionData, useFetcher } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'

/**
 * A dialog route's submissions: through its own fetcher once hydrated (the page stays, the dialog reports),
 * through a plain Form before (the action answers with the page, whose action data is `noScriptData`).
 * `Action` is the route's `typeof action`.
 */
export function useDialogFetcher<Action>(noScriptData: ReturnType<typeof useActionData<Action>>) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<Action>()
  return {
    hydrated,
    fetcher,
    FormComponent: hydrated ? fetcher.Form : Form,
    /** The latest answer, for the form's errors and the results shown. */
    response: hydrated ? fetcher.data : noScriptData,
    /** The answer once the request and the reload after it are over: the moment to toast or to close. */
    settled: fetcher.state === 'idle' ? fetcher.data : undefined,
    pending: fetcher.state !== 'idle',
    /** What is being sent, for switches that show their new position before the answer. */
    submitting: fetcher.formData,
    /** Where it is being sent, for a dialog whose forms post to several routes. */
    submittingTo: fetcher.formAction,
  }
}

/** What a dialog's content gets of its route's submissions, `T` being the answer it reads. */
export type DialogSubmission<T> = Omit<
  ReturnType<typeof useDialogFetcher<unknown>>,
  'response' | 'settled' | 'fetcher'
> & {
  response: T | undefined
  settled: T | undefined
  fetcher: { submit: ReturnType<typeof useFetcher>['submit'] }
}
