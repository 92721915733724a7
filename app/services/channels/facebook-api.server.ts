import type { z } from 'zod'
import { messages, type Channel } from '~/db/schema'
import type { pageSendSchema, pageSubscribeSchema } from '~/lib/channels/connect-schemas'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { PLATFORM_TEXT_LIMITS, splitMessage } from '~/lib/conversations/reply-pipeline'
import { upsertConversation } from '~/services/messages/port.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError } from '~/utils/errors'
import { findChannelByPlatformId, setWebhookState } from './channels.server'
import { callMeta, pageOfToken, requireMetaConfigured, type MetaDeps } from './facebook.server'

/**
 * The spec's two Facebook calls that carry a page token from the client (section 7, "Webhooks"): subscribing a
 * page to the app's webhooks and sending a Messenger message as the page. The token must be one Graph says is a
 * page token of this app, and its page a channel of the caller's organization: a page of another organization, or
 * a token of another page, is refused without calling the Send API.
 */

/** The organization's channel for the page the token acts as; anything else is refused. */
async function pageChannel(
  scope: OrganizationScope,
  token: string,
  pageId: string | undefined,
  deps: MetaDeps,
): Promise<Channel> {
  requireMetaConfigured(deps)
  const tokenPage = await pageOfToken(token, deps)
  if (!tokenPage && !pageId) throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.facebookInvalid)
  const wanted = pageId ?? tokenPage
  const channel = wanted ? await findChannelByPlatformId(scope, 'facebook', wanted) : undefined
  if (!channel) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.connectionNotFound)
  if (tokenPage !== channel.platformChannelId)
    throw new AppError('VALIDATION_ERROR', CHANNEL_TEXTS.facebookInvalid)
  return channel
}

/** subscribed_apps with the given fields for a connected page; its channel's webhook switch turns on. */
export async function subscribePageWebhook(
  scope: OrganizationScope,
  input: z.output<typeof pageSubscribeSchema>,
  deps: MetaDeps,
): Promise<Channel> {
  const channel = await pageChannel(scope, input.pageAccessToken, input.pageId, deps)
  await callMeta(
    () => deps.graph.subscribePageToApp(input.pageAccessToken, input.pageId, input.subscriptions),
    CHANNEL_TEXTS.facebookInvalid,
  )
  return setWebhookState(scope, channel.id, { webhookSubscribed: true, webhookSecretHash: null })
}

/**
 * Sends a text as the page (Send API, `messaging_type: RESPONSE`, split at Messenger's 2,000 characters on word
 * boundaries) and records it as an outbound message of the conversation, so that the agent sees it in later
 * prompts and delivery and read receipts update it.
 */
export async function sendPageMessage(
  scope: OrganizationScope,
  input: z.output<typeof pageSendSchema>,
  deps: MetaDeps,
): Promise<{ messageId: string; recipientId: string; parts: number }> {
  const channel = await pageChannel(scope, input.pageAccessToken, undefined, deps)
  const text = typeof input.message === 'string' ? input.message : input.message.text
  const parts = splitMessage(text, PLATFORM_TEXT_LIMITS.facebook)
  let first: string | undefined
  for (const part of parts) {
    const sent = await callMeta(
      () =>
        deps.graph.sendMessengerText(input.pageAccessToken, channel.platformChannelId, {
          recipientId: input.recipientId,
          text: part,
        }),
      CHANNEL_TEXTS.facebookInvalid,
    )
    first ??= sent.messageId
  }
  const messageId = first ?? ''
  const conversation = await upsertConversation(scope.db, {
    organizationId: scope.organizationId,
    channelId: channel.id,
    platformChatId: input.recipientId,
  })
  await scope.db.insert(messages).values({
    organizationId: scope.organizationId,
    channelId: channel.id,
    conversationId: conversation.id,
    direction: 'outbound',
    platformMessageId: messageId,
    senderId: channel.platformChannelId,
    text,
    status: 'sent',
    sentParts: parts.length,
    platformSentAt: new Date(),
  })
  return { messageId, recipientId: input.recipientId, parts: parts.length }
}
