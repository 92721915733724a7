import { z } from 'zod'
import { savedReplyItemSchema, savedReplySchema } from '~/lib/conversations/saved-replies'
import { idSchema } from '~/lib/shared/input'
import { defineEndpoint } from '~/lib/api/contract'
import { orgParams } from './shared'

const replyParams = orgParams.extend({ savedReplyId: idSchema })
const shortcutNote =
  "a shortcut is 1 to 32 lowercase letters, digits or dashes (a leading / is dropped), unique in the organization; the text at most 4,096 characters, where {{first_name}} becomes the customer's first name"

/** Saved replies (docs/decisions/059): the organization's texts a person puts in the reply box with `/`. */
export const savedReplyEndpoints = {
  listSavedReplies: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/saved-replies',
    operationId: 'listSavedReplies',
    summary: "The organization's saved replies, by shortcut (at most 200)",
    tag: 'Saved replies',
    params: orgParams,
    response: z.array(savedReplyItemSchema),
  }),
  createSavedReply: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/saved-replies',
    operationId: 'createSavedReply',
    summary: `Add a saved reply: ${shortcutNote}`,
    tag: 'Saved replies',
    params: orgParams,
    body: savedReplySchema,
    response: savedReplyItemSchema,
    successStatus: 201,
  }),
  updateSavedReply: defineEndpoint({
    method: 'PUT',
    path: '/organizations/{orgId}/saved-replies/{savedReplyId}',
    operationId: 'updateSavedReply',
    summary: `Replace a saved reply's shortcut and text: ${shortcutNote}`,
    tag: 'Saved replies',
    params: replyParams,
    body: savedReplySchema,
    response: savedReplyItemSchema,
  }),
  deleteSavedReply: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/saved-replies/{savedReplyId}',
    operationId: 'deleteSavedReply',
    summary: 'Delete a saved reply',
    tag: 'Saved replies',
    params: replyParams,
    response: z.object({ id: z.string() }),
  }),
}
