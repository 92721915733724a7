import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Paper, Stack, Text } from '@mantine/core'
import { useLoaderData } from '@remix-run/react'
import { KnowledgeScreen } from '~/components/knowledge/knowledge-screen'
import { KNOWLEDGE_TEXTS as T } from '~/components/knowledge/texts'
import { PageHeader } from '~/components/layout/page-header'
import { PRODUCT_NAME } from '~/lib/shared/constants'
import { firstMessage } from '~/lib/shared/form-reply'
import { TRY_QUESTION_LIMIT, tryQuestionSchema } from '~/lib/knowledge/forms'
import { listKnowledgeSources } from '~/services/knowledge/sources.server'
import { fieldErrors } from '~/utils/validation'
import { searchKnowledge } from '~/services/agents/knowledge-search.server'
import { getCurrentScope } from '~/http/organization.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [{ title: `Knowledge · ${PRODUCT_NAME}` }]

/** The sources, and (`?q=`, the "Try a question" box) the passages retrieval finds for a question. */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  if (!scope) return { hasOrganization: false, sources: [], trial: null }
  const q = new URL(request.url).searchParams.get('q')
  const [sources, trial] = await Promise.all([
    listKnowledgeSources(scope),
    q === null ? null : tryQuestion(scope, q),
  ])
  return { hasOrganization: true, sources, trial }
}

async function tryQuestion(scope: NonNullable<Awaited<ReturnType<typeof getCurrentScope>>>, q: string) {
  const parsed = tryQuestionSchema.safeParse({ q })
  if (!parsed.success) {
    return { question: q, hits: [], error: firstMessage(fieldErrors(parsed.error, '')) ?? null }
  }
  const { embeddings } = await getRuntime()
  const hits = await searchKnowledge(scope, { query: parsed.data.q, limit: TRY_QUESTION_LIMIT }, embeddings)
  return { question: parsed.data.q, hits, error: null }
}

export default function KnowledgePage() {
  const { sources, hasOrganization, trial } = useLoaderData<typeof loader>()
  return <KnowledgeScreen sources={sources} hasOrganization={hasOrganization} trial={trial} />
}

export function ErrorBoundary() {
  return (
    <Stack>
      <PageHeader title={T.title} />
      <Paper withBorder p="xl" role="alert">
        <Text fw={600}>The knowledge could not be loaded.</Text>
        <Text c="gray.7">
          Reload the page to try again; if it keeps failing, the server may be unreachable.
        </Text>
      </Paper>
    </Stack>
  )
}
