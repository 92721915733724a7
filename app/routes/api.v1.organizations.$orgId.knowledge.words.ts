import { endpoints } from '~/lib/api/endpoints'
import { apiRoute, handle, scopeOf } from '~/http/api.server'
import { getCustomerWords, saveCustomerWords } from '~/services/knowledge/customer-words.server'

// A static segment: Remix ranks `knowledge/words` above `knowledge/$sourceId` (docs/decisions/073).
const route = apiRoute(
  handle(endpoints.getCustomerWords, async ({ caller, params }) => ({
    data: { groups: await getCustomerWords(await scopeOf(caller, params.orgId)) },
  })),
  handle(endpoints.updateCustomerWords, async ({ caller, params, body }) => ({
    data: { groups: await saveCustomerWords(await scopeOf(caller, params.orgId), body.groups) },
    message: 'Words saved',
  })),
)

export const loader = route
export const action = route
