import { getRuntime } from '~/runtime/runtime.server'

/** What the sources service needs to send a source's processing job: the runtime's queue. */
export async function knowledgeDeps() {
  const { knowledgeJobs } = await getRuntime()
  return { jobs: knowledgeJobs }
}
