import { z } from 'zod'
import {
  clientKeySchema,
  conversationDetailSchema,
  conversationListQuerySchema,
  conversationMessagesQuerySchema,
  conversationSummarySchema,
  pauseSchema,
  pauseStateSchema,
  assignSchema,
  labelsSchema,
  assigneeStateSchema,
  statusChangeSchema,
  statusStateSchema,
  personReplyResultSchema,
  personReplySchema,
} from '~/lib/conversations/conversations'
import { idSchema } from '~/lib/shared/input'
import { defineEndpoint } from '~/lib/api/contract'
import { contactNotesSchema, contactSchema } from '~/lib/conversations/contact'
import { orgParams } from './shared'

const conversationParams = orgParams.extend({ conversationId: idSchema })
const messageParams = conversationParams.extend({ messageId: idSchema })

export const conversationEndpoints = {
  listConversations: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/conversations',
    operationId: 'listConversations',
    summary:
      "The organization's conversations, those needing a person first, then newest activity first, optionally by channel, state, status, assignee, label and words of their messages, a page at a time",
    tag: 'Conversations',
    params: orgParams,
    query: conversationListQuerySchema,
    response: z.array(conversationSummarySchema),
  }),
  getConversation: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/conversations/{conversationId}',
    operationId: 'getConversation',
    summary:
      'One conversation with its latest messages, oldest first (`before`: the page before the message with that sequence; `hasOlder`: there are more)',
    tag: 'Conversations',
    params: conversationParams,
    query: conversationMessagesQuerySchema,
    response: conversationDetailSchema,
  }),
  sendConversationMessage: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/messages',
    operationId: 'sendConversationMessage',
    summary:
      "A person's reply, sent to the customer on the conversation's platform (within its window); the AI pauses until the channel's hand-back",
    tag: 'Conversations',
    params: conversationParams,
    headers: z.object({
      'Idempotency-Key': clientKeySchema.optional().meta({
        description:
          'Sent again with the same key (in this conversation), the request sends nothing and answers the first one’s message with 200',
      }),
    }),
    body: personReplySchema,
    response: personReplyResultSchema,
    successStatus: 201,
    otherSuccesses: { 200: 'The Idempotency-Key was used before: its message, nothing sent now' },
  }),
  pauseConversation: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/pause',
    operationId: 'pauseConversation',
    summary:
      'Pause the AI in the conversation: for `minutes`, or (left out, or 0) until resumed; its messages are stored and not answered',
    tag: 'Conversations',
    params: conversationParams,
    body: pauseSchema.default({}),
    response: pauseStateSchema,
  }),
  resumeConversation: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/resume',
    operationId: 'resumeConversation',
    summary: 'The AI answers the next message again; whatever asked for a person is taken as seen',
    tag: 'Conversations',
    params: conversationParams,
    response: pauseStateSchema,
  }),
  setConversationStatus: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/status',
    operationId: 'setConversationStatus',
    summary:
      "Resolve the conversation, snooze it for some minutes, or open it again; the AI keeps answering, and the customer's next message opens it",
    tag: 'Conversations',
    params: conversationParams,
    body: statusChangeSchema,
    response: statusStateSchema,
  }),
  assignConversation: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/assignee',
    operationId: 'assignConversation',
    summary:
      'Assign the conversation to a member of the organization (by uid), or unassign it (null); anyone else is a 400',
    tag: 'Conversations',
    params: conversationParams,
    body: assignSchema,
    response: assigneeStateSchema,
  }),
  setConversationLabels: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/labels',
    operationId: 'setConversationLabels',
    summary:
      "Set the conversation's labels, all of them (at most 10; each trimmed and in lower case); an empty list takes them off",
    tag: 'Conversations',
    params: conversationParams,
    body: labelsSchema,
    response: labelsSchema,
  }),
  getConversationContact: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/conversations/{conversationId}/contact',
    operationId: 'getConversationContact',
    summary:
      "The conversation's customer: name, handle or phone, language once known, first seen, the team's notes, labels, and the customer's other conversations",
    tag: 'Conversations',
    params: conversationParams,
    response: contactSchema,
  }),
  setContactNotes: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}/conversations/{conversationId}/contact',
    operationId: 'setContactNotes',
    summary:
      "Set the team's notes on the conversation's customer (at most 2,000 characters; empty clears them)",
    tag: 'Conversations',
    params: conversationParams,
    body: contactNotesSchema,
    response: contactNotesSchema,
  }),
  retryConversationMessage: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/conversations/{conversationId}/messages/{messageId}/retry',
    operationId: 'retryConversationMessage',
    summary:
      "Send a failed message again: a person's reply from where it stopped, an AI answer through the reply queue (`requeued`); anything not failed is a 409",
    tag: 'Conversations',
    params: messageParams,
    response: z.object({ requeued: z.boolean() }),
  }),
}
