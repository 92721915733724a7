import { z } from 'zod'

// Meta's webhook payloads (`/webhooks/meta`), only the fields we read; anything else passes through untouched.
// Meta's reference pages show fields that are not always there, so the envelope is strict and each event is
// checked on its own by the service that reads it (services/messages/inbound/meta, docs/decisions/029).

const idOf = z.looseObject({ id: z.string().min(1) })
// Milliseconds as a number, or as a string on some reference pages (messaging_optins shows "TIMESTAMP").
const millis = z.union([z.number(), z.string()]).optional()

// Messenger (https://developers.facebook.com/docs/messenger-platform/webhooks): the common fields are `sender`
// and `recipient`; `timestamp` is missing from some events (message_deliveries).
export const messengerMessage = z.looseObject({
  sender: idOf,
  timestamp: millis,
  message: z.looseObject({
    mid: z.string().min(1),
    text: z.string().optional(),
    // Photos, voice notes, files...: their type, a sticker's id, and the file's URL (fetched by the worker).
    attachments: z
      .array(
        z.looseObject({
          type: z.string().optional(),
          payload: z
            .looseObject({
              sticker_id: z.unknown().optional(),
              url: z
                .url({ protocol: /^https?$/ })
                .max(4000)
                .optional()
                .catch(undefined),
            })
            .nullish(),
        }),
      )
      .optional()
      .catch(undefined),
  }),
})
// message_echoes: the page's own message (developers.facebook.com/docs/messenger-platform/reference/webhook-events/
// message-echoes). `app_id` is the app that sent it: a number in the page's examples, a string in its table, missing
// when Meta's own inbox sent it. Older versions of the page swap `sender` and `recipient`, so both are read.
export const messengerEcho = z.looseObject({
  sender: idOf,
  recipient: idOf,
  timestamp: millis,
  message: z.looseObject({
    is_echo: z.literal(true),
    mid: z.string().min(1),
    app_id: z.union([z.number(), z.string()]).optional(),
    text: z.string().optional(),
  }),
})
export const messengerPostback = z.looseObject({
  sender: idOf,
  timestamp: millis,
  postback: z.looseObject({ mid: z.string().optional(), title: z.string().optional() }),
})
export const messengerDelivery = z.looseObject({
  sender: idOf,
  delivery: z.looseObject({ mids: z.array(z.string()).optional(), watermark: z.number().optional() }),
})
export const messengerRead = z.looseObject({ sender: idOf, read: z.looseObject({ watermark: z.number() }) })
export const pageEntry = z.looseObject({
  id: z.string(),
  time: z.number().optional(),
  messaging: z.array(z.unknown()).optional(),
  // Events for another app of a handover (standby) and page feed changes: not ours to answer.
  standby: z.array(z.unknown()).optional(),
  changes: z.array(z.unknown()).optional(),
})

// Messenger's event kinds, by the key that carries each (webhook-events reference); the first four are handled.
export const MESSENGER_KINDS = [
  'message',
  'postback',
  'delivery',
  'read',
  'reaction',
  'referral',
  'optin',
  'account_linking',
  'policy_enforcement',
  'pass_thread_control',
  'take_thread_control',
  'request_thread_control',
  'app_roles',
  'game_play',
  'response_feedback',
] as const

// WhatsApp Cloud API (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components)
// A file a WhatsApp message carries (Cloud API's media object): its id to fetch it by, and what Meta says it is. An
// id we cannot read, or a media object we cannot read at all, leaves the message stored, as a label.
const whatsappMedia = z.looseObject({
  caption: z.string().optional(),
  id: z
    .string()
    .regex(/^\d{1,30}$/)
    .optional()
    .catch(undefined),
  mime_type: z.string().max(200).optional().catch(undefined),
  filename: z.string().max(1000).optional().catch(undefined),
})

export const whatsappMessage = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: millis,
  type: z.string().optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  button: z.looseObject({ text: z.string() }).optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ title: z.string() }).optional(),
      list_reply: z.looseObject({ title: z.string() }).optional(),
    })
    .optional(),
  image: whatsappMedia.optional().catch(undefined),
  video: whatsappMedia.optional().catch(undefined),
  document: whatsappMedia.optional().catch(undefined),
  audio: whatsappMedia.extend({ voice: z.boolean().optional() }).optional().catch(undefined),
})
// smb_message_echoes (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/
// smb_message_echoes): what the business wrote in the WhatsApp Business app on a number that is also on Cloud API
// (coexistence). A message's shape, `from` the business's number and `to` the customer's.
export const whatsappEcho = whatsappMessage.extend({ from: z.string().optional(), to: z.string().min(1) })
export const whatsappStatus = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  errors: z.array(z.looseObject({ title: z.string().optional(), message: z.string().optional() })).optional(),
})
export const whatsappContacts = z.array(
  z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string() }).optional() }),
)
export const whatsappChange = z.looseObject({
  field: z.string(),
  value: z.looseObject({
    metadata: z.looseObject({ phone_number_id: z.string().min(1) }).optional(),
    contacts: z.unknown().optional(),
    messages: z.array(z.unknown()).optional(),
    message_echoes: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
    errors: z.array(z.unknown()).optional(),
  }),
})
export const wabaEntry = z.looseObject({ id: z.string(), changes: z.array(z.unknown()) })

// Other products of the app (Instagram, permissions...) are accepted and ignored: their entries are not read.
export const metaWebhookSchema = z.looseObject({ object: z.string(), entry: z.array(z.unknown()) })
export type MetaWebhookBody = z.infer<typeof metaWebhookSchema>

export type MetaPlatform = 'facebook' | 'whatsapp'

/** Which product a delivery is for, by its `object` (Messenger or WhatsApp); `meta` for anything else. */
export function metaWebhookPlatform(body: unknown): MetaPlatform | 'meta' {
  const object = body && typeof body === 'object' ? Reflect.get(body, 'object') : undefined
  if (object === 'page') return 'facebook'
  if (object === 'whatsapp_business_account') return 'whatsapp'
  return 'meta'
}
