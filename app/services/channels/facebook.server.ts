import type { Channel } from '~/db/schema'
import type { FacebookPage, FacebookTokenInfo } from '~/integrations/meta/facebook-login.server'
import type { GraphClient } from '~/integrations/meta/graph.server'
import { PlatformError, withPlatformRetries } from '~/integrations/platform-errors'
import type { FacebookPagesInput } from '~/lib/channels/connect-schemas'
import { CHANNEL_TEXTS } from '~/lib/channels/channels'
import { MESSENGER_WEBHOOK_FIELDS } from '~/lib/channels/facebook'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { hasDeadToken } from '~/lib/channels/health'
import { AppError, isAppError } from '~/utils/errors'
import {
  channelToken,
  deleteChannelRow,
  findChannelByPlatformId,
  findConnectedPlatformIds,
  getChannel,
  insertChannels,
  markChannelStatus,
  reconnectChannel,
  setWebhookState,
  type ChannelDeps,
} from './channels.server'

/** What the channel services need of the Meta app's configuration (config.meta has it). */
export type MetaAppSettings = { configured: boolean; appId: string }
export type MetaDeps = ChannelDeps & { graph: GraphClient; meta: MetaAppSettings }

/** Connecting a page or a number needs the Meta app: without it every Graph check would fail obscurely. */
export function requireMetaConfigured(deps: Pick<MetaDeps, 'meta'>): void {
  if (!deps.meta.configured) throw new AppError('NOT_CONFIGURED', CHANNEL_TEXTS.metaNotConfigured)
}

/**
 * A Graph call with the spec's retry policy (retryable codes only), its failure turned into what the caller is
 * told: a refused token is `tokenMessage` (400), anything else the spec's message for its code (502), with the
 * code and whether it was retryable.
 */
export async function callMeta<T>(call: () => Promise<T>, tokenMessage: string): Promise<T> {
  try {
    return await withPlatformRetries(call)
  } catch (error) {
    throw metaFailure(error, tokenMessage)
  }
}

export function metaFailure(error: unknown, tokenMessage: string): unknown {
  if (!(error instanceof PlatformError)) return error
  if (error.code === 'AUTH_TOKEN_INVALID') return new AppError('VALIDATION_ERROR', tokenMessage)
  const details = {
    platform: [error.platform],
    platformCode: [error.code],
    retryable: [String(error.retryable)],
  }
  // Graph refused what was sent (a spent code, a wrong PIN): the request's fault, 400; anything else is Graph's.
  return new AppError(
    error.code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'UPSTREAM_ERROR',
    error.message,
    details,
  )
}

/** callMeta with a stored channel's token: a token Graph refuses marks the channel `error` with the reason. */
export async function callMetaForChannel<T>(
  scope: OrganizationScope,
  channelId: string,
  call: () => Promise<T>,
  tokenMessage: string,
): Promise<T> {
  try {
    return await withPlatformRetries(call)
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
      await markChannelStatus(scope, channelId, 'error', tokenMessage)
    }
    throw metaFailure(error, tokenMessage)
  }
}

const invalidConnection = (pageIds: string[] = []) =>
  new AppError(
    'VALIDATION_ERROR',
    CHANNEL_TEXTS.facebookInvalid,
    pageIds.length
      ? { pages: pageIds.map((id) => `${CHANNEL_TEXTS.facebookInvalid} (page ${id})`) }
      : undefined,
  )

/** debug_token with the app token: a refusal there is our app's credentials' fault, not the person's token. */
async function debugToken(token: string, deps: MetaDeps): Promise<FacebookTokenInfo> {
  try {
    return await withPlatformRetries(() => deps.graph.debugToken(token))
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
      throw new AppError('UPSTREAM_ERROR', error.message)
    }
    throw metaFailure(error, CHANNEL_TEXTS.facebookInvalid)
  }
}

const isOurs = (info: FacebookTokenInfo, deps: MetaDeps) => info.isValid && info.appId === deps.meta.appId

type VerifiedPage = { id: string; name: string; category: string; tasks: string[]; accessToken: string }

/**
 * The pages the person administers, read with their user token exchanged for a long-lived one: those page tokens
 * do not expire (a browser login's expire with its short-lived user token, in about an hour).
 */
export async function longLivedPagesOf(userToken: string, deps: MetaDeps): Promise<FacebookPage[]> {
  const info = await debugToken(userToken, deps)
  if (!isOurs(info, deps) || info.type !== 'USER') throw invalidConnection()
  const invalid = CHANNEL_TEXTS.facebookInvalid
  const longLived = await callMeta(() => deps.graph.exchangeForLongLivedToken(userToken), invalid)
  return callMeta(() => deps.graph.getPages(longLived.accessToken), invalid)
}

/** The posted pages as Graph gives them to the person now: every one must be among them. */
async function pagesFromUserToken(
  userToken: string,
  pageIds: string[],
  deps: MetaDeps,
): Promise<Map<string, VerifiedPage>> {
  const byId = new Map((await longLivedPagesOf(userToken, deps)).map((page) => [page.id, page]))
  const missing = pageIds.filter((id) => !byId.has(id))
  if (missing.length > 0) throw invalidConnection(missing)
  return byId
}

/** The page a token acts as, when Graph says it is a valid page token issued to this app. */
export async function pageOfToken(token: string, deps: MetaDeps): Promise<string | undefined> {
  const info = await debugToken(token, deps)
  return isOurs(info, deps) && info.type === 'PAGE' ? info.pageId : undefined
}

/** Whether Graph says the token is valid, issued to this app, and a page token acting as that very page. */
export async function verifyPageToken(token: string, pageId: string, deps: MetaDeps): Promise<boolean> {
  return (await pageOfToken(token, deps)) === pageId
}

async function verifyPageTokens(pages: VerifiedPage[], deps: MetaDeps): Promise<void> {
  const refused: string[] = []
  for (const page of pages) {
    if (!(await verifyPageToken(page.accessToken, page.id, deps))) refused.push(page.id)
  }
  if (refused.length > 0) throw invalidConnection(refused)
}

/**
 * Connects the chosen Facebook pages, one channel each, all or none: every token is checked first, then the
 * pages are stored in one statement (a page connected already refuses the whole request), then each page is
 * subscribed to the app's webhooks. A subscription that fails removes what this request stored. A page that is
 * this organization's channel with a dead token is reconnected instead (docs/decisions/046): it takes the new
 * token once its subscription is back.
 */
export async function connectFacebookPages(
  scope: OrganizationScope,
  { pages, userAccessToken }: FacebookPagesInput,
  deps: MetaDeps,
): Promise<Channel[]> {
  requireMetaConfigured(deps)
  const verified = await freshPages(pages, userAccessToken, deps)
  await verifyPageTokens(verified, deps)

  const reconnecting = await deadChannelsOf(scope, verified)
  const taken = (
    await findConnectedPlatformIds(
      scope,
      'facebook',
      verified.map((page) => page.id),
    )
  ).filter((id) => !reconnecting.has(id))
  if (taken.length > 0) {
    throw new AppError('CONFLICT', CHANNEL_TEXTS.alreadyConnected, {
      pages: taken.map((id) => `${CHANNEL_TEXTS.alreadyConnected} (page ${id})`),
    })
  }
  const newPages = verified.filter((page) => !reconnecting.has(page.id))
  let stored: Channel[] = []
  try {
    if (newPages.length > 0) {
      stored = await insertChannels(
        scope,
        deps,
        newPages.map((page) => ({
          platformName: 'facebook',
          channelType: 'facebook_page',
          platformChannelId: page.id,
          accessToken: page.accessToken,
          metadata: pageMetadata(page),
        })),
      )
    }
  } catch (error) {
    if (isAppError(error)) throw error
    throw new AppError('SERVER_ERROR', CHANNEL_TEXTS.facebookCreateFailed)
  }

  await subscribeAll(scope, verified, stored, deps)
  for (const page of verified) {
    const dead = reconnecting.get(page.id)
    if (dead) {
      const metadata = { ...dead.metadata, ...pageMetadata(page), name: dead.metadata.name ?? page.name }
      stored.push(await reconnectChannel(scope, deps, dead.id, { accessToken: page.accessToken, metadata }))
    }
  }
  const byPage = new Map(stored.map((channel) => [channel.platformChannelId, channel]))
  const channels: Channel[] = []
  for (const page of verified) {
    const channel = byPage.get(page.id)
    if (!channel) continue
    channels.push(
      await setWebhookState(scope, channel.id, { webhookSubscribed: true, webhookSecretHash: null }),
    )
  }
  return channels
}

/** The posted pages, once each, with what Facebook says of them now when the user's token is given. */
async function freshPages(
  pages: FacebookPagesInput['pages'],
  userAccessToken: string | undefined,
  deps: MetaDeps,
): Promise<VerifiedPage[]> {
  const posted = [...new Map(pages.map((page) => [page.id, page])).values()]
  const fresh = userAccessToken
    ? await pagesFromUserToken(
        userAccessToken,
        posted.map((page) => page.id),
        deps,
      )
    : undefined
  return posted.map((page) => {
    const graphPage = fresh?.get(page.id)
    return {
      id: page.id,
      name: graphPage?.name ?? page.name,
      category: graphPage?.category ?? page.category ?? '',
      tasks: graphPage?.tasks ?? page.tasks ?? [],
      accessToken: graphPage?.accessToken ?? page.accessToken,
    }
  })
}

/**
 * Every page subscribed to our app's webhook. When one fails, nothing of the request stays: the new pages were not
 * connected anywhere before (checked by the caller), and a page being reconnected keeps its dead token.
 */
async function subscribeAll(
  scope: OrganizationScope,
  verified: VerifiedPage[],
  stored: Channel[],
  deps: MetaDeps,
) {
  const subscribed: VerifiedPage[] = []
  try {
    for (const page of verified) {
      await callMeta(
        () => deps.graph.subscribePageToApp(page.accessToken, page.id, MESSENGER_WEBHOOK_FIELDS),
        CHANNEL_TEXTS.facebookInvalid,
      )
      subscribed.push(page)
    }
  } catch (error) {
    await Promise.allSettled(
      subscribed.map((page) => deps.graph.unsubscribePageFromApp(page.accessToken, page.id)),
    )
    await Promise.all(stored.map((channel) => deleteChannelRow(scope, channel.id)))
    throw error
  }
}

const pageMetadata = (page: VerifiedPage) => ({
  name: page.name,
  category: page.category,
  tasks: page.tasks.join(','),
  pageId: page.id,
})

/** The pages of the request that are this organization's channels with a dead token, by page id. */
async function deadChannelsOf(
  scope: OrganizationScope,
  pages: VerifiedPage[],
): Promise<Map<string, Channel>> {
  const dead = new Map<string, Channel>()
  for (const page of pages) {
    const channel = await findChannelByPlatformId(scope, 'facebook', page.id)
    if (channel && hasDeadToken(channel)) dead.set(page.id, channel)
  }
  return dead
}

/**
 * On: the page's subscribed_apps with the Messenger fields; off: the page's subscription removed. A refused page
 * token marks the channel `error` (the page must be connected again) and says so.
 */
export async function setFacebookWebhook(
  scope: OrganizationScope,
  channelId: string,
  subscribed: boolean,
  deps: MetaDeps,
): Promise<Channel> {
  const channel = await getChannel(scope, channelId)
  if (channel.platformName !== 'facebook') throw new AppError('VALIDATION_ERROR', 'Not a Facebook channel')
  requireMetaConfigured(deps)
  const token = channelToken(channel, deps.encryptionKey)
  const pageId = channel.platformChannelId
  await callMetaForChannel(
    scope,
    channelId,
    () =>
      subscribed
        ? deps.graph.subscribePageToApp(token, pageId, MESSENGER_WEBHOOK_FIELDS)
        : deps.graph.unsubscribePageFromApp(token, pageId),
    CHANNEL_TEXTS.facebookInvalid,
  )
  return setWebhookState(scope, channelId, { webhookSubscribed: subscribed, webhookSecretHash: null })
}

/** Before a page's channel goes: its subscription is removed, best effort (a dead token must not block it). */
export async function releaseFacebookPage(channel: Channel, deps: MetaDeps): Promise<string | undefined> {
  if (channel.platformName !== 'facebook' || !channel.webhookSubscribed || !deps.meta.configured)
    return undefined
  try {
    await deps.graph.unsubscribePageFromApp(
      channelToken(channel, deps.encryptionKey),
      channel.platformChannelId,
    )
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
