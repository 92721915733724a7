import { z } from 'zod'
import { downloadMedia, MediaError } from '~/integrations/media/download.server'
import { fileBlob, OUTBOUND_FILE_UPLOAD_EXTRA_MS, type OutboundFile } from '~/integrations/outbound-file'
import { PlatformError } from '~/integrations/platform-errors'
import { MEDIA_FAILURES, MEDIA_FETCH_TIMEOUT_MS } from '~/lib/conversations/media'
import {
  GraphApiError,
  successSchema,
  tokenSchema,
  type ExchangedToken,
  type GraphFetch,
  graphCall,
} from './graph-fetch.server'

export type WhatsAppPhoneDetails = { id: string; verified_name: string; display_phone_number: string }
export type WhatsAppBusinessAccount = {
  id: string
  name: string
  currency?: string
  timezone_id?: string
  message_template_namespace?: string
}

/** The WhatsApp Cloud API's side of Graph: Embedded Signup's onboarding and the sends. */
export type WhatsAppClient = {
  /** The Embedded Signup code (short-lived, single use: exchange it at once) for a business token. */
  exchangeCode(code: string): Promise<ExchangedToken>
  registerPhoneNumber(token: string, phoneNumberId: string, pin: string): Promise<void>
  subscribeAppToWaba(token: string, wabaId: string): Promise<void>
  /** Stops the WABA's webhooks to this app (every number of that WABA). */
  unsubscribeAppFromWaba(token: string, wabaId: string): Promise<void>
  /** The apps the WABA sends its webhooks to (GET /{waba-id}/subscribed_apps): their ids. */
  getWabaSubscribedApps(token: string, wabaId: string): Promise<string[]>
  getPhoneNumber(token: string, phoneNumberId: string): Promise<WhatsAppPhoneDetails>
  getWaba(token: string, wabaId: string): Promise<WhatsAppBusinessAccount>
  sendWhatsAppText(
    token: string,
    phoneNumberId: string,
    message: { to: string; text: string },
  ): Promise<{ messageId: string }>
  /**
   * A photo (an `image` message: JPEG or PNG, 5 MB at most) or a file (a `document`, 100 MB at most, shown with its
   * name), with its caption: the file is uploaded to the number's media first (POST /{phone-number-id}/media, with
   * OUTBOUND_FILE_UPLOAD_EXTRA_MS on top of the request's time), then sent by its media id. A refusal of either step
   * is a GraphApiError; an upload whose message was refused stays on Meta's side until it expires (30 days).
   */
  sendWhatsAppFile(
    token: string,
    phoneNumberId: string,
    message: { to: string; file: OutboundFile },
  ): Promise<{ messageId: string }>
  /**
   * A file a customer sent (GET /{media-id}, then its URL with the token), at most `maxBytes`. The URL lasts five
   * minutes: an expired one is asked for again, once. A media id Graph no longer knows, or a file over the limit,
   * is a MediaError.
   */
  downloadWhatsAppMedia(
    token: string,
    options: { mediaId: string; maxBytes: number; signal?: AbortSignal },
  ): Promise<Buffer>
}

// developers.facebook.com/docs/whatsapp/cloud-api/reference/media#retrieve-media-url
const mediaSchema = z.object({ url: z.url({ protocol: /^https?$/ }), file_size: z.number().optional() })

const PIN = /^\d{6}$/
const WABA_FIELDS = 'id,name,currency,timezone_id,message_template_namespace'

const phoneSchema = z.object({ id: z.string(), verified_name: z.string(), display_phone_number: z.string() })
const wabaSchema = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string().optional(),
  timezone_id: z.string().optional(),
  message_template_namespace: z.string().optional(),
})
// developers.facebook.com/docs/graph-api/reference/whatsapp-business-account/subscribed_apps
const wabaSubscribedAppsSchema = z.object({
  data: z.array(z.looseObject({ whatsapp_business_api_data: z.looseObject({ id: z.string() }) })),
})
const whatsAppSendSchema = z.object({ messages: z.array(z.object({ id: z.string() })).min(1) })
// developers.facebook.com/docs/whatsapp/cloud-api/reference/media#upload-media
const uploadedMediaSchema = z.object({ id: z.string().min(1) })

/** The upload's form: the file, its MIME type again as `type`, and the product. */
function mediaForm(file: OutboundFile): FormData {
  const form = new FormData()
  form.set('messaging_product', 'whatsapp')
  form.set('type', file.contentType)
  form.set('file', fileBlob(file), file.fileName)
  return form
}

/** The message that shows the uploaded media: a picture, or a document under its file name. */
function mediaMessage(to: string, mediaId: string, file: OutboundFile) {
  const caption = file.caption ? { caption: file.caption } : {}
  const message = { messaging_product: 'whatsapp', recipient_type: 'individual', to }
  return file.kind === 'photo'
    ? { ...message, type: 'image', image: { id: mediaId, ...caption } }
    : { ...message, type: 'document', document: { id: mediaId, ...caption, filename: file.fileName } }
}

const whatsapp = graphCall('whatsapp')

export function createWhatsAppClient({ request, oauthQuery }: GraphFetch): WhatsAppClient {
  return {
    async exchangeCode(code) {
      const query = { ...oauthQuery, code }
      const answer = await request(
        tokenSchema,
        whatsapp({ path: ['oauth', 'access_token'], query, secrets: [code] }),
      )
      return { accessToken: answer.access_token, expiresIn: answer.expires_in }
    },

    async registerPhoneNumber(token, phoneNumberId, pin) {
      if (!PIN.test(pin)) {
        throw new GraphApiError('whatsapp', 'VALIDATION_ERROR', {
          message: 'The two-step verification PIN must be 6 digits',
        })
      }
      const body = { messaging_product: 'whatsapp', pin }
      const call = whatsapp({
        method: 'POST',
        path: [phoneNumberId, 'register'],
        body,
        token,
        secrets: [pin],
      })
      await request(successSchema, call)
    },

    async subscribeAppToWaba(token, wabaId) {
      await request(successSchema, whatsapp({ method: 'POST', path: [wabaId, 'subscribed_apps'], token }))
    },

    async unsubscribeAppFromWaba(token, wabaId) {
      await request(successSchema, whatsapp({ method: 'DELETE', path: [wabaId, 'subscribed_apps'], token }))
    },

    async getWabaSubscribedApps(token, wabaId) {
      const answer = await request(
        wabaSubscribedAppsSchema,
        whatsapp({ path: [wabaId, 'subscribed_apps'], token }),
      )
      return answer.data.map((app) => app.whatsapp_business_api_data.id)
    },

    async getPhoneNumber(token, phoneNumberId) {
      const query = { fields: 'id,verified_name,display_phone_number' }
      return request(phoneSchema, whatsapp({ path: [phoneNumberId], query, token }))
    },

    async getWaba(token, wabaId) {
      return request(wabaSchema, whatsapp({ path: [wabaId], query: { fields: WABA_FIELDS }, token }))
    },

    async sendWhatsAppText(token, phoneNumberId, { to, text }) {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'text',
        text: { body: text },
      }
      const answer = await request(
        whatsAppSendSchema,
        whatsapp({ method: 'POST', path: [phoneNumberId, 'messages'], body, token }),
      )
      return { messageId: answer.messages[0].id }
    },

    async sendWhatsAppFile(token, phoneNumberId, { to, file }) {
      const upload = whatsapp({
        method: 'POST',
        path: [phoneNumberId, 'media'],
        body: mediaForm(file),
        token,
        extraMs: OUTBOUND_FILE_UPLOAD_EXTRA_MS,
      })
      const media = await request(uploadedMediaSchema, upload)
      const body = mediaMessage(to, media.id, file)
      const answer = await request(
        whatsAppSendSchema,
        whatsapp({ method: 'POST', path: [phoneNumberId, 'messages'], body, token }),
      )
      return { messageId: answer.messages[0].id }
    },

    async downloadWhatsAppMedia(token, { mediaId, maxBytes, signal }) {
      const tooLarge = MEDIA_FAILURES.tooLarge(maxBytes)
      for (let attempt = 1; ; attempt++) {
        const media = await request(mediaSchema, whatsapp({ path: [mediaId], token })).catch(
          (error: unknown) => {
            // Graph's "Unsupported get request" (400, code 100) for a media id it no longer has (30 days).
            if (error instanceof PlatformError && (error.status === 400 || error.status === 404)) {
              throw new MediaError(MEDIA_FAILURES.expired)
            }
            throw error
          },
        )
        if ((media.file_size ?? 0) > maxBytes) throw new MediaError(tooLarge)
        try {
          return await downloadMedia(media.url, {
            platform: 'whatsapp',
            headers: { authorization: `Bearer ${token}` },
            maxBytes,
            timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
            signal,
            tooLarge,
            gone: MEDIA_FAILURES.expired,
          })
        } catch (error) {
          const expired =
            (error instanceof MediaError && error.message === MEDIA_FAILURES.expired) ||
            (error instanceof PlatformError && (error.status === 401 || error.status === 403))
          if (!expired || attempt > 1) throw error
        }
      }
    },
  }
}
