import { endpoints } from '~/lib/api/endpoints'
import { CONTACT_TEXTS } from '~/lib/conversations/contact'
import { getContact, setContactNotes } from '~/services/conversations/contact.server'
import { apiRoute, handle, scopeOf } from '~/http/api.server'

const route = apiRoute(
  handle(endpoints.getConversationContact, async ({ caller, params }) => ({
    data: await getContact(await scopeOf(caller, params.orgId), params.conversationId),
  })),
  handle(endpoints.setContactNotes, async ({ caller, params, body }) => ({
    data: await setContactNotes(await scopeOf(caller, params.orgId), params.conversationId, body.notes),
    message: CONTACT_TEXTS.notesSaved,
  })),
)

export const loader = route
export const action = route
