import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { CustomerWordsScreen, type CustomerWordsAnswer } from '~/components/knowledge/customer-words-screen'
import { NoOrganization } from '~/components/organizations/no-organization'
import { attemptInScope, getCurrentScope } from '~/http/organization.server'
import { CUSTOMER_WORDS_TEXTS as T, customerWordsFormSchema } from '~/lib/knowledge/customer-words'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { getCustomerWords, saveCustomerWords } from '~/services/knowledge/customer-words.server'

export const meta: MetaFunction = () => [{ title: `Knowledge settings · ${PRODUCT_NAME}` }]

/** The current organization's "words your customers use" (docs/decisions/073). */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  return { groups: scope ? await getCustomerWords(scope) : null }
}

/** Saves the groups (any member, as the knowledge itself); a refusal keeps what was typed and changes nothing. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const typed = form.get('words')
  const parsed = customerWordsFormSchema.safeParse({ words: typeof typed === 'string' ? typed : undefined })
  if (!parsed.success) {
    const words = typeof typed === 'string' ? typed : ''
    const error = parsed.error.issues[0]?.message ?? T.failed
    return data<CustomerWordsAnswer>({ error, notice: null, words }, 400)
  }
  const outcome = await attemptInScope(
    await getCurrentScope(request),
    (scope) => saveCustomerWords(scope, parsed.data.words),
    T.failed,
    { route: 'knowledge-settings' },
  )
  return outcome.ok
    ? data<CustomerWordsAnswer>({ error: null, notice: T.saved })
    : data<CustomerWordsAnswer>({ error: outcome.failure.reason, notice: null }, outcome.failure.status)
}

export default function KnowledgeSettingsPage() {
  const { groups } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  if (!groups)
    return <NoOrganization hint="Create or pick an organization to set the words its customers use." />
  return <CustomerWordsScreen groups={groups} answer={answer} />
}
