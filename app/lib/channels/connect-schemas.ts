import { z } from 'zod'
import { CHANNEL_TEXTS } from './channels'
import { MESSENGER_WEBHOOK_FIELDS } from './facebook'
import { hasNoNul, NUL_MESSAGE, requiredOr } from '~/lib/shared/input'

/**
 * What the Facebook and WhatsApp connect flows post to the server, shared by the product API and the Channels
 * page's actions; client-safe. The messages are the spec's (sections 5 and 8).
 */

/** Graph object ids (pages, phone numbers, WABAs) are digits. */
const GRAPH_ID = /^\d{1,32}$/
const INVALID_PAGE_ID = 'Invalid Facebook page id'
export const facebookPageIdSchema = z
  .string({ error: requiredOr('Facebook page id is required', INVALID_PAGE_ID) })
  .trim()
  .regex(GRAPH_ID, INVALID_PAGE_ID)
export const PIN_FORMAT_MESSAGE = 'The two-step verification PIN must be 6 digits'

/** A Meta access token posted by the client; the spec's message when it is missing. */
export const accessTokenSchema = z
  .string({ error: CHANNEL_TEXTS.noAccessToken })
  .trim()
  .min(1, { error: CHANNEL_TEXTS.noAccessToken })
  .max(2048)

export const facebookPageSchema = z.object({
  id: facebookPageIdSchema,
  name: z.string().trim().min(1).max(200).refine(hasNoNul, NUL_MESSAGE),
  category: z.string().trim().max(200).refine(hasNoNul, NUL_MESSAGE).optional(),
  tasks: z.array(z.string().trim().min(1).max(50).refine(hasNoNul, NUL_MESSAGE)).max(20).optional(),
  /** The page token the SDK's /me/accounts gave; checked with Graph before anything is stored. */
  accessToken: accessTokenSchema,
})

/** The pages chosen in the Facebook login, one channel each. */
export const facebookPagesSchema = z.object({
  pages: z
    .array(facebookPageSchema, { error: CHANNEL_TEXTS.noFacebookPages })
    .min(1, { error: CHANNEL_TEXTS.noFacebookPages })
    .max(100),
  /**
   * The person's user token from the same login, optional. With it the server exchanges it for a long-lived one
   * and takes the pages' tokens from Graph again: page tokens read with a long-lived user token do not expire,
   * while the ones a browser login gives expire with the short-lived user token (about an hour).
   */
  userAccessToken: accessTokenSchema.optional(),
})
export type FacebookPagesInput = z.infer<typeof facebookPagesSchema>

const graphId = z
  .string({ error: CHANNEL_TEXTS.whatsappSignupFailed })
  .trim()
  .regex(GRAPH_ID, { error: CHANNEL_TEXTS.whatsappSignupFailed })

/** Embedded Signup's result (spec section 3, "WhatsApp connect payload"); an empty PIN is no PIN. */
export const whatsappConnectSchema = z.object({
  code: z
    .string({ error: CHANNEL_TEXTS.whatsappNoCode })
    .trim()
    .min(1, { error: CHANNEL_TEXTS.whatsappNoCode })
    .max(2048),
  wabaId: graphId,
  phoneNumberId: graphId,
  pin: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^\d{6}$/, PIN_FORMAT_MESSAGE)
      .optional(),
  ),
})
export type WhatsAppConnectInput = z.infer<typeof whatsappConnectSchema>

/** The spec's direct Facebook calls (section 7, "Webhooks"): a page token from the client, checked at Graph. */
export const pageSubscribeSchema = z.object({
  pageAccessToken: accessTokenSchema,
  pageId: facebookPageIdSchema,
  subscriptions: z
    .array(z.enum(MESSENGER_WEBHOOK_FIELDS))
    .min(1)
    .max(10)
    .default([...MESSENGER_WEBHOOK_FIELDS]),
})

export const pageSendSchema = z.object({
  pageAccessToken: accessTokenSchema,
  /** The person's page-scoped id (PSID), as the page's webhook gives it. */
  recipientId: z
    .string({ error: requiredOr('Recipient id is required', 'Invalid recipient id') })
    .trim()
    .regex(GRAPH_ID, 'Invalid recipient id'),
  /** A text, or the Send API's message object with a text. */
  message: z.union(
    [
      z.string().trim().min(1, 'Message text is required').max(20_000).refine(hasNoNul, NUL_MESSAGE),
      z.object({
        text: z.string().trim().min(1, 'Message text is required').max(20_000).refine(hasNoNul, NUL_MESSAGE),
      }),
    ],
    { error: requiredOr('Message text is required', 'The message must be a text or {"text": "..."}') },
  ),
})
