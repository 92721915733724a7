import { and, eq, ne, sql } from 'drizzle-orm'
import { channels, type Channel } from '~/db/schema'
import type { WhatsAppBusinessAccount } from '~/integrations/meta/whatsapp.server'
import type { WhatsAppConnectInput } from '~/lib/channels/connect-schemas'
import { hasDeadToken } from '~/lib/channels/health'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { AppError, isAppError } from '~/utils/errors'
import {
  channelToken,
  findChannelByPlatformId,
  findConnectedPlatformIds,
  getChannel,
  insertChannel,
  reconnectChannel,
  setWebhookState,
} from './channels.server'
import {
  callMeta,
  callMetaForChannel,
  metaFailure,
  requireMetaConfigured,
  type MetaDeps,
} from './facebook.server'

export type WhatsAppConnection = {
  channel: Channel
  phoneDetails: { verified_name: string; display_phone_number: string }
  wabaDetails: WhatsAppBusinessAccount
}

const FAILED = CHANNEL_TEXTS.whatsappConnectFailed

/** A refused Graph call during the connect: the spec's "Failed to connect WhatsApp number", with Graph's reason. */
function connectFailure(error: unknown): unknown {
  const mapped = metaFailure(error, FAILED)
  if (!isAppError(mapped) || mapped.message === FAILED) return mapped
  return new AppError(mapped.code, FAILED, { ...mapped.details, reason: [mapped.message] })
}

/**
 * Connects the number Embedded Signup shared: the code is exchanged at once (it is short-lived and single use,
 * so never retried), the number registered for the Cloud API with the PIN, the app subscribed to the WABA, the
 * phone and WABA details read, and the channel stored. Without a PIN the number is taken as registered already
 * (Cloud API numbers shared as they are): registering sets the two-step PIN, and a PIN the person does not know
 * would lock them out of their own number (ADR 026).
 */
export async function connectWhatsApp(
  scope: OrganizationScope,
  { code, wabaId, phoneNumberId, pin }: WhatsAppConnectInput,
  deps: MetaDeps,
): Promise<WhatsAppConnection> {
  requireMetaConfigured(deps)
  const existing = await findChannelByPlatformId(scope, 'whatsapp', phoneNumberId)
  const reconnecting = existing && hasDeadToken(existing) ? existing : undefined
  if (!reconnecting && (await findConnectedPlatformIds(scope, 'whatsapp', [phoneNumberId])).length > 0) {
    throw new AppError('CONFLICT', CHANNEL_TEXTS.alreadyConnected)
  }
  let token: string
  try {
    token = (await deps.graph.exchangeCode(code)).accessToken
  } catch (error) {
    throw connectFailure(error)
  }
  let phone, waba
  try {
    if (pin) await callMeta(() => deps.graph.registerPhoneNumber(token, phoneNumberId, pin), FAILED)
    await callMeta(() => deps.graph.subscribeAppToWaba(token, wabaId), FAILED)
    phone = await callMeta(() => deps.graph.getPhoneNumber(token, phoneNumberId), FAILED)
    waba = await callMeta(() => deps.graph.getWaba(token, wabaId), FAILED)
  } catch (error) {
    throw connectFailure(error)
  }
  let channel: Channel
  const metadata = {
    name: phone.verified_name,
    verifiedName: phone.verified_name,
    phoneNumber: phone.display_phone_number,
    wabaId,
    wabaName: waba.name,
  }
  try {
    channel = reconnecting
      ? await reconnectWhatsApp(scope, deps, reconnecting, { token, metadata })
      : await insertChannel(scope, deps, {
          platformName: 'whatsapp',
          channelType: 'whatsapp_number',
          platformChannelId: phoneNumberId,
          accessToken: token,
          webhookSubscribed: true,
          metadata,
        })
  } catch (error) {
    await releaseWabaIfUnused(scope, { wabaId, token }, deps)
    if (isAppError(error)) throw error
    throw new AppError('SERVER_ERROR', FAILED)
  }
  return {
    channel,
    phoneDetails: { verified_name: phone.verified_name, display_phone_number: phone.display_phone_number },
    wabaDetails: waba,
  }
}

/** A number of this organization whose token died takes the new one, keeping its name (docs/decisions/046). */
async function reconnectWhatsApp(
  scope: OrganizationScope,
  deps: MetaDeps,
  channel: Channel,
  { token, metadata }: { token: string; metadata: Channel['metadata'] },
): Promise<Channel> {
  const name = channel.metadata.name ?? metadata.name
  await reconnectChannel(scope, deps, channel.id, {
    accessToken: token,
    metadata: { ...channel.metadata, ...metadata, name },
  })
  return setWebhookState(scope, channel.id, { webhookSubscribed: true, webhookSecretHash: null })
}

/**
 * Whether another WhatsApp channel (of any organization) still listens to this WABA: the subscription is the
 * WABA's, shared by all its numbers, so it is removed only with the last of them.
 */
async function wabaStillUsed(scope: OrganizationScope, wabaId: string, exceptChannelId?: string) {
  const [row] = await scope.db
    .select({ id: channels.id })
    .from(channels)
    .where(
      and(
        eq(channels.platformName, 'whatsapp'),
        eq(channels.webhookSubscribed, true),
        sql`${channels.metadata}->>'wabaId' = ${wabaId}`,
        exceptChannelId ? ne(channels.id, exceptChannelId) : undefined,
      ),
    )
    .limit(1)
  return row !== undefined
}

async function releaseWabaIfUnused(
  scope: OrganizationScope,
  { wabaId, token, exceptChannelId }: { wabaId: string; token: string; exceptChannelId?: string },
  deps: MetaDeps,
): Promise<string | undefined> {
  try {
    if (await wabaStillUsed(scope, wabaId, exceptChannelId)) return undefined
    await deps.graph.unsubscribeAppFromWaba(token, wabaId)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function wabaOf(channel: Channel): string {
  const wabaId = channel.metadata.wabaId
  if (!wabaId) throw new AppError('NOT_FOUND', CHANNEL_TEXTS.whatsappNotFound)
  return wabaId
}

/**
 * On: the app subscribed to the number's WABA. Off: the WABA's subscription removed, unless another connected
 * number of the same WABA still has its webhook on (then only this channel's switch moves).
 */
export async function setWhatsAppWebhook(
  scope: OrganizationScope,
  channelId: string,
  subscribed: boolean,
  deps: MetaDeps,
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  if (channel.platformName !== 'whatsapp') throw new AppError('VALIDATION_ERROR', 'Not a WhatsApp channel')
  requireMetaConfigured(deps)
  const [token, wabaId] = [channelToken(channel, deps.encryptionKey), wabaOf(channel)]
  const invalid = CHANNEL_TEXTS.whatsappInvalid
  if (subscribed) {
    await callMetaForChannel(scope, channelId, () => deps.graph.subscribeAppToWaba(token, wabaId), invalid)
  } else if (!(await wabaStillUsed(scope, wabaId, channel.id))) {
    await callMetaForChannel(
      scope,
      channelId,
      () => deps.graph.unsubscribeAppFromWaba(token, wabaId),
      invalid,
    )
  }
  return setWebhookState(scope, channelId, { webhookSubscribed: subscribed, webhookSecretHash: null })
}

/** Before a number's channel goes: the WABA's subscription goes with its last number, best effort. */
export async function releaseWhatsAppNumber(
  scope: OrganizationScope,
  channel: Channel,
  deps: MetaDeps,
): Promise<string | undefined> {
  if (channel.platformName !== 'whatsapp' || !channel.webhookSubscribed || !deps.meta.configured)
    return undefined
  const wabaId = channel.metadata.wabaId
  if (!wabaId) return undefined
  const token = channelToken(channel, deps.encryptionKey)
  return releaseWabaIfUnused(scope, { wabaId, token, exceptChannelId: channel.id }, deps)
}
