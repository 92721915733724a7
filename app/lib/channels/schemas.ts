import { z } from 'zod'
import { CHANNEL_TEXTS } from './channels'
import { telegramTokenSchema } from './telegram'

/**
 * The Channels screen's forms, one schema each, shared by the forms in the browser and the routes' actions (the
 * channel is the URL's). The messages are the spec's (sections 5 and 8).
 */
export const connectTelegramSchema = z.object({ botToken: telegramTokenSchema })

/** A switch's new position, posted as "true" or "false". */
const flag = z.enum(['true', 'false']).transform((value) => value === 'true')

export const webhookSchema = z.object({ subscribed: flag })

/** Assigning, and re-sending an assignment with the agent switched on or off (spec section 4). */
export const assignAgentSchema = z.object({
  agentId: z.string({ error: CHANNEL_TEXTS.selectAgent }).min(1, { error: CHANNEL_TEXTS.selectAgent }),
  agentEnabled: flag.default(true),
})
