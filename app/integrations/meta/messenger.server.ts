import { z } from 'zod'
import { fileBlob, OUTBOUND_FILE_UPLOAD_EXTRA_MS, type OutboundFile } from '~/integrations/outbound-file'
import { MESSENGER_WEBHOOK_FIELDS } from '~/lib/channels/facebook'
import { successSchema, graphCall, type GraphFetch } from './graph-fetch.server'

/** A message tag: HUMAN_AGENT lets a person answer up to 7 days after the customer's last message. */
export type MessengerTag = 'HUMAN_AGENT'

/** Messenger's side of Graph: a page's webhook subscription and its sends. */
export type MessengerClient = {
  subscribePageToApp(pageToken: string, pageId: string, fields?: readonly string[]): Promise<void>
  unsubscribePageFromApp(pageToken: string, pageId: string): Promise<void>
  /** The apps the page sends its webhooks to (GET /{page-id}/subscribed_apps): their ids. */
  getPageSubscribedApps(pageToken: string, pageId: string): Promise<string[]>
  sendMessengerText(
    pageToken: string,
    pageId: string,
    message: { recipientId: string; text: string; tag?: MessengerTag },
  ): Promise<{ messageId: string; recipientId: string }>
  /**
   * A photo (an `image` attachment) or a file (a `file` attachment), 25 MB at most, uploaded with the message in one
   * multipart request (not kept for reuse), with OUTBOUND_FILE_UPLOAD_EXTRA_MS on top of the request's time. A
   * Messenger attachment carries no caption: `file.caption` is not sent here, the caller sends it as a text.
   */
  sendMessengerFile(
    pageToken: string,
    pageId: string,
    message: { recipientId: string; file: OutboundFile; tag?: MessengerTag },
  ): Promise<{ messageId: string; recipientId: string }>
  sendMessengerTyping(pageToken: string, pageId: string, recipientId: string): Promise<void>
  /**
   * The person's name as the page may read it (the User Profile API). Graph refuses it when the person has not
   * opened the conversation or the app lacks the access (a GraphApiError, as for any call).
   */
  getMessengerProfile(pageToken: string, psid: string): Promise<MessengerProfile>
}

/** What the User Profile API says of a person: the parts of the name Graph gave (either may be missing). */
export type MessengerProfile = { firstName?: string; lastName?: string }

// developers.facebook.com/docs/graph-api/reference/page/subscribed_apps: one entry per app, with its fields.
const pageSubscribedAppsSchema = z.object({
  data: z.array(z.looseObject({ id: z.string(), subscribed_fields: z.array(z.string()).optional() })),
})
const messengerSendSchema = z.object({ recipient_id: z.string(), message_id: z.string() })
const senderActionSchema = z.object({ recipient_id: z.string() })
// developers.facebook.com/docs/messenger-platform/identity/user-profile: only the fields asked for come back.
const profileSchema = z.object({
  id: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
})
/** Only the name: the profile picture and the rest are not ours to keep. */
const PROFILE_FIELDS = 'first_name,last_name'
/**
 * The name is looked up in a conversation's reply job, which its next message waits behind: a Graph that hangs
 * costs that message 5 seconds at most, not the client's 30.
 */
export const MESSENGER_PROFILE_TIMEOUT_MS = 5_000

const facebook = graphCall('facebook')

/**
 * The Send API's upload form (developers.facebook.com/docs/messenger-platform/send-messages/#file): the recipient,
 * the messaging type and the message as JSON text, the file as `filedata` under its name and type.
 */
function attachmentForm(recipientId: string, file: OutboundFile, tag: MessengerTag | undefined): FormData {
  const form = new FormData()
  form.set('recipient', JSON.stringify({ id: recipientId }))
  form.set('messaging_type', tag ? 'MESSAGE_TAG' : 'RESPONSE')
  if (tag) form.set('tag', tag)
  const attachment = { type: file.kind === 'photo' ? 'image' : 'file', payload: { is_reusable: false } }
  form.set('message', JSON.stringify({ attachment }))
  form.set('filedata', fileBlob(file), file.fileName)
  return form
}

export function createMessengerClient({ request }: GraphFetch): MessengerClient {
  return {
    async subscribePageToApp(pageToken, pageId, fields = MESSENGER_WEBHOOK_FIELDS) {
      const query = { subscribed_fields: fields.join(',') }
      await request(
        successSchema,
        facebook({ method: 'POST', path: [pageId, 'subscribed_apps'], query, token: pageToken }),
      )
    },

    async unsubscribePageFromApp(pageToken, pageId) {
      await request(
        successSchema,
        facebook({ method: 'DELETE', path: [pageId, 'subscribed_apps'], token: pageToken }),
      )
    },

    async getPageSubscribedApps(pageToken, pageId) {
      const answer = await request(
        pageSubscribedAppsSchema,
        facebook({ path: [pageId, 'subscribed_apps'], token: pageToken }),
      )
      return answer.data.map((app) => app.id)
    },

    async sendMessengerText(pageToken, pageId, { recipientId, text, tag }) {
      // RESPONSE: a reply inside the 24-hour window opened by the person's message; after it, a tagged message.
      const body = tag
        ? { recipient: { id: recipientId }, messaging_type: 'MESSAGE_TAG', tag, message: { text } }
        : { recipient: { id: recipientId }, messaging_type: 'RESPONSE', message: { text } }
      const call = facebook({ method: 'POST', path: [pageId, 'messages'], body, token: pageToken })
      const answer = await request(messengerSendSchema, call)
      return { messageId: answer.message_id, recipientId: answer.recipient_id }
    },

    async sendMessengerFile(pageToken, pageId, { recipientId, file, tag }) {
      const call = facebook({
        method: 'POST',
        path: [pageId, 'messages'],
        body: attachmentForm(recipientId, file, tag),
        token: pageToken,
        extraMs: OUTBOUND_FILE_UPLOAD_EXTRA_MS,
      })
      const answer = await request(messengerSendSchema, call)
      return { messageId: answer.message_id, recipientId: answer.recipient_id }
    },

    async sendMessengerTyping(pageToken, pageId, recipientId) {
      const body = { recipient: { id: recipientId }, sender_action: 'typing_on' }
      await request(
        senderActionSchema,
        facebook({ method: 'POST', path: [pageId, 'messages'], body, token: pageToken }),
      )
    },

    async getMessengerProfile(pageToken, psid) {
      const query = { fields: PROFILE_FIELDS }
      const call = facebook({
        path: [psid],
        query,
        token: pageToken,
        timeoutMs: MESSENGER_PROFILE_TIMEOUT_MS,
      })
      const profile = await request(profileSchema, call)
      return { firstName: profile.first_name, lastName: profile.last_name }
    },
  }
}
