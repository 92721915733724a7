import { Form, useFetcher } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import type { ChannelActionResponse } from './types'

/**
 * A dialog's submissions: through its own fetcher once hydrated (the page stays, the dialog reports), through a
 * plain Form before (the action answers with the page, whose action data `noScriptData` is).
 */
export function useChannelFetcher(noScriptData: ChannelActionResponse | undefined) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<ChannelActionResponse>()
  return {
    hydrated,
    fetcher,
    FormComponent: hydrated ? fetcher.Form : Form,
    /** The latest answer, for the messages shown. */
    response: hydrated ? fetcher.data : noScriptData,
    /** The answer once the request and the reload after it are over: the moment to toast or to close. */
    settled: fetcher.state === 'idle' ? fetcher.data : undefined,
    pending: fetcher.state !== 'idle',
    /** What is being sent, for switches that show their new position before the answer. */
    submitting: fetcher.formData,
  }
}
