import { Form, useFetcher } from '@remix-run/react'
import { useHydrated } from '~/components/hooks/use-hydrated'
import type { AgentActionResponse } from './types'

/**
 * A dialog's submission: through its own fetcher once hydrated (the page stays, a toast reports), through a plain
 * Form before (the action answers with the page, whose action data `noScriptData` is).
 */
export function useAgentFetcher(noScriptData: AgentActionResponse | undefined) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<AgentActionResponse>()
  return {
    hydrated,
    FormComponent: hydrated ? fetcher.Form : Form,
    /** The latest answer, for the form's errors and the results shown. */
    response: hydrated ? fetcher.data : noScriptData,
    /** The answer once the request and the reload after it are over: the moment to toast. */
    settled: fetcher.state === 'idle' ? fetcher.data : undefined,
    pending: fetcher.state !== 'idle',
  }
}
