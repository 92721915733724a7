import { endpoints } from '~/lib/api/endpoints'
import { buildOpenApiDocument } from '~/lib/api/openapi'
import { getRuntime } from '~/runtime/runtime.server'

export async function loader() {
  const { config } = await getRuntime()
  return Response.json(buildOpenApiDocument(endpoints, config.publicUrl), {
    headers: { 'Cache-Control': 'public, max-age=300' },
  })
}
