import { parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { ChannelsScreen } from '~/components/channels/channels-screen'
import { CHANNELS_PATH, isDialogChange, parseChannelDialog } from '~/components/channels/dialog-url'
import {
  assignAgentSchema,
  channelRefSchema,
  connectTelegramSchema,
  webhookSchema,
} from '~/components/channels/schemas'
import type {
  AgentOption,
  ConnectFacebookResponse,
  ConnectWhatsAppResponse,
  ChannelDeleteResponse,
  ChannelUpdateIntent,
  ChannelUpdateResponse,
  ConnectTelegramResponse,
} from '~/components/channels/types'
import { facebookPagesSchema, whatsappConnectSchema } from '~/lib/channel-connect-schemas'
import { CHANNEL_MESSAGES, channelDisplayName } from '~/lib/channels'
import { PRODUCT_NAME } from '~/lib/constants'
import type { MetaClientConfig } from '~/lib/facebook'
import { getAgent, listAgents } from '~/services/agents/agents.server'
import {
  assignAgent,
  isPolled,
  listChannels,
  removeAgent,
  toChannelView,
} from '~/services/channels/channels.server'
import { deleteChannel } from '~/services/channels/delete-channel.server'
import { connectFacebookPages } from '~/services/channels/facebook.server'
import { connectWhatsApp } from '~/services/channels/whatsapp.server'
import { connectTelegramBot } from '~/services/channels/telegram.server'
import { setChannelWebhook } from '~/services/channels/webhook.server'
import type { OrganizationScope } from '~/services/organizations/scope.server'
import { isAppError } from '~/utils/errors'
import { attemptInScope, getCurrentScope, type PageFailure } from '~/http/organization.server'
import { platformDeps } from '~/runtime/channel-deps.server'
import type { Config } from '~/runtime/config.server'
import { getRuntime } from '~/runtime/runtime.server'

export const meta: MetaFunction = () => [{ title: `Channels · ${PRODUCT_NAME}` }]

const toOption = ({ id, name, description, status }: AgentOption): AgentOption => ({
  id,
  name,
  description,
  status,
})

const ignoreNotFound = (error: unknown) => {
  if (isAppError(error, 'NOT_FOUND')) return null
  throw error
}

/** What the Facebook SDK island needs of the Meta app: public identifiers only, never the secret. */
const metaClientConfig = (meta: Config['meta']): MetaClientConfig => ({
  configured: meta.configured,
  appId: meta.appId,
  sdkUrl: meta.sdkUrl,
  whatsappConfigId: meta.whatsappConfigId ?? null,
  messageOrigins: meta.signupMessageOrigins,
})

/** The channels as the browser may see them (toChannelView: no token, no secret) and the active agents. */
export async function loader({ request }: LoaderFunctionArgs) {
  const scope = await getCurrentScope(request)
  const { config } = await getRuntime()
  const meta = metaClientConfig(config.meta)
  if (!scope) return { hasOrganization: false, channels: [], agents: [], otherAgents: [], meta }
  const [rows, active] = await Promise.all([listChannels(scope), listAgents(scope, { status: 'active' })])
  const channels = rows.map((channel) => ({
    ...toChannelView(channel, config),
    polled: isPolled(channel, config),
  }))
  const agents = active.items.map(toOption)
  // An agent assigned while active keeps its name in the "Currently Assigned" panel after it is deactivated.
  const otherIds = new Set(
    channels.flatMap(({ agentId }) => (agentId && !agents.some((a) => a.id === agentId) ? [agentId] : [])),
  )
  const otherAgents = (
    await Promise.all([...otherIds].map((id) => getAgent(scope, id).catch(ignoreNotFound)))
  ).flatMap((agent) => (agent ? [toOption(agent)] : []))
  return { hasOrganization: true, channels, agents, otherAgents, meta }
}

// Opening the details dialog reloads the active agents (the dialog asks for them afresh); opening or closing any
// other dialog changes only the URL's dialog part, and the grid stays.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (!formMethod && isDialogChange(currentUrl, nextUrl)) {
    return parseChannelDialog(nextUrl.search)?.kind === 'details'
  }
  return defaultShouldRevalidate
}

/** What the channel services need: where the app is reached, the token key, the platform clients. */
async function channelDeps() {
  return platformDeps(await getRuntime())
}

const FAILURES: Record<ChannelUpdateIntent, string> = {
  webhook: CHANNEL_MESSAGES.webhookFailed,
  assign: CHANNEL_MESSAGES.assignFailed,
  'toggle-agent': CHANNEL_MESSAGES.assignFailed,
  'remove-agent': CHANNEL_MESSAGES.removeFailed,
}

const SUCCESSES: Record<ChannelUpdateIntent, string | null> = {
  webhook: null,
  assign: CHANNEL_MESSAGES.assigned,
  'toggle-agent': null,
  'remove-agent': CHANNEL_MESSAGES.removed,
}

/** A change made in the Channel Details dialog: the dialog's green or red alert says how it went. */
async function update(
  intent: ChannelUpdateIntent,
  formData: FormData,
  scope: OrganizationScope | undefined,
  call: (scope: OrganizationScope) => Promise<unknown>,
) {
  const channelId = String(formData.get('channelId') ?? '')
  const outcome = await attemptInScope(scope, call, FAILURES[intent], { intent, channelId })
  const answer = outcome.ok
    ? { intent, channelId, ok: true, message: SUCCESSES[intent], error: null }
    : { intent, channelId, ok: false, message: null, error: outcome.failure.reason }
  return data(answer satisfies ChannelUpdateResponse, outcome.ok ? 200 : outcome.failure.status)
}

/** A form that did not pass its schema: its first message, in the same shape as a failed change. */
function invalid(
  intent: ChannelUpdateIntent,
  formData: FormData,
  error: Record<string, string[] | null> | null,
) {
  const reason = Object.values(error ?? {}).find((messages) => messages?.length)?.[0] ?? FAILURES[intent]
  const channelId = String(formData.get('channelId') ?? '')
  return data(
    { intent, channelId, ok: false, message: null, error: reason } satisfies ChannelUpdateResponse,
    400,
  )
}

async function connect(formData: FormData, scope: OrganizationScope | undefined) {
  const intent: ConnectTelegramResponse['intent'] = 'connect-telegram'
  const submission = parseWithZod(formData, { schema: connectTelegramSchema })
  // The token is never sent back, not even to the person who typed it.
  const hideFields = ['botToken']
  if (submission.status !== 'success') {
    const answer = { intent, result: submission.reply({ hideFields }), connected: null, error: null }
    return data(answer satisfies ConnectTelegramResponse, 400)
  }
  const deps = await channelDeps()
  const outcome = await attemptInScope(
    scope,
    (s) => connectTelegramBot(s, submission.value, deps),
    CHANNEL_MESSAGES.telegramCreateFailed,
    { intent },
  )
  if (outcome.ok) {
    if (formData.has('noscript')) return redirect(CHANNELS_PATH)
    const view = toChannelView(outcome.value, deps)
    const connected = { id: view.id, name: channelDisplayName(view) }
    const answer = { intent, result: submission.reply({ resetForm: true }), connected, error: null }
    return data(answer satisfies ConnectTelegramResponse)
  }
  const { status, reason, fieldErrors } = outcome.failure
  // A refused token is the field's error; any other reason is the form's and the Connection Error banner's.
  const answer = fieldErrors
    ? { intent, result: submission.reply({ fieldErrors, hideFields }), connected: null, error: null }
    : {
        intent,
        result: submission.reply({ formErrors: [reason], hideFields }),
        connected: null,
        error: reason,
      }
  return data(answer satisfies ConnectTelegramResponse, status)
}

const firstMessage = (errors: Record<string, string[] | null> | undefined) =>
  Object.values(errors ?? {}).find((messages) => messages?.length)?.[0]

/** The spec's message for a failed connect, with the particular reason after it when there is one. */
function connectFailure(fallback: string, { reason, fieldErrors }: PageFailure) {
  const detail = reason === fallback ? firstMessage(fieldErrors ?? undefined) : reason
  return detail && detail !== fallback ? `${fallback}: ${detail}` : fallback
}

/** The pages the Facebook login listed (with the person's token), one channel each. Needs JavaScript. */
async function connectFacebook(formData: FormData, scope: OrganizationScope | undefined) {
  const intent: ConnectFacebookResponse['intent'] = 'connect-facebook'
  const submission = parseWithZod(formData, { schema: facebookPagesSchema })
  if (submission.status !== 'success') {
    const error = firstMessage(submission.error ?? undefined) ?? CHANNEL_MESSAGES.noFacebookPages
    return data({ intent, connected: null, error } satisfies ConnectFacebookResponse, 400)
  }
  const deps = await channelDeps()
  const failed = CHANNEL_MESSAGES.facebookCreateFailed
  const outcome = await attemptInScope(
    scope,
    (s) => connectFacebookPages(s, submission.value, deps),
    failed,
    {
      intent,
    },
  )
  if (!outcome.ok) {
    const error = connectFailure(failed, outcome.failure)
    return data({ intent, connected: null, error } satisfies ConnectFacebookResponse, outcome.failure.status)
  }
  const connected = outcome.value.map((channel) => {
    const view = toChannelView(channel, deps)
    return { id: view.id, name: channelDisplayName(view) }
  })
  return data({ intent, connected, error: null } satisfies ConnectFacebookResponse)
}

/** The number Embedded Signup shared (code, WABA and phone number ids). Needs JavaScript. */
async function connectWhatsAppNumber(formData: FormData, scope: OrganizationScope | undefined) {
  const intent: ConnectWhatsAppResponse['intent'] = 'connect-whatsapp'
  const submission = parseWithZod(formData, { schema: whatsappConnectSchema })
  if (submission.status !== 'success') {
    const error = firstMessage(submission.error ?? undefined) ?? CHANNEL_MESSAGES.whatsappSignupFailed
    return data({ intent, connected: null, error } satisfies ConnectWhatsAppResponse, 400)
  }
  const deps = await channelDeps()
  const failed = CHANNEL_MESSAGES.whatsappConnectFailed
  const outcome = await attemptInScope(scope, (s) => connectWhatsApp(s, submission.value, deps), failed, {
    intent,
  })
  if (!outcome.ok) {
    const error = connectFailure(failed, outcome.failure)
    return data({ intent, connected: null, error } satisfies ConnectWhatsAppResponse, outcome.failure.status)
  }
  const view = toChannelView(outcome.value.channel, deps)
  const connected = { id: view.id, name: channelDisplayName(view) }
  return data({ intent, connected, error: null } satisfies ConnectWhatsAppResponse)
}

/**
 * The Channels screen's forms post here, told apart by `intent`. From a dialog (a fetcher) the answer is data for
 * the dialog; from the page without JavaScript the answer is the page with the dialog's message in it, except
 * that a connected or deleted channel goes back to the grid.
 */
export async function action({ request }: ActionFunctionArgs) {
  const scope = await getCurrentScope(request)
  const formData = await request.formData()
  const intent = formData.get('intent')

  switch (intent) {
    case 'connect-telegram':
      return connect(formData, scope)
    case 'connect-facebook':
      return connectFacebook(formData, scope)
    case 'connect-whatsapp':
      return connectWhatsAppNumber(formData, scope)
    case 'webhook': {
      const submission = parseWithZod(formData, { schema: webhookSchema })
      if (submission.status !== 'success') return invalid(intent, formData, submission.error ?? null)
      const { channelId, subscribed } = submission.value
      const deps = await channelDeps()
      return update(intent, formData, scope, (s) => setChannelWebhook(s, channelId, subscribed, deps))
    }
    case 'assign':
    case 'toggle-agent': {
      const submission = parseWithZod(formData, { schema: assignAgentSchema })
      if (submission.status !== 'success') return invalid(intent, formData, submission.error ?? null)
      const { channelId, ...assignment } = submission.value
      return update(intent, formData, scope, (s) => assignAgent(s, channelId, assignment))
    }
    case 'remove-agent': {
      const submission = parseWithZod(formData, { schema: channelRefSchema })
      if (submission.status !== 'success') return invalid(intent, formData, submission.error ?? null)
      const { channelId } = submission.value
      return update(intent, formData, scope, (s) => removeAgent(s, channelId))
    }
    case 'delete': {
      const channelId = String(formData.get('channelId') ?? '')
      const submission = parseWithZod(formData, { schema: channelRefSchema })
      if (submission.status !== 'success') {
        const answer = {
          intent,
          channelId,
          deleted: false,
          warning: null,
          error: CHANNEL_MESSAGES.noChannelSelected,
        }
        return data(answer satisfies ChannelDeleteResponse, 400)
      }
      const deps = await channelDeps()
      const outcome = await attemptInScope(
        scope,
        (s) => deleteChannel(s, submission.value.channelId, deps),
        CHANNEL_MESSAGES.deleteFailed,
        { intent, channelId },
      )
      if (!outcome.ok) {
        const answer = { intent, channelId, deleted: false, warning: null, error: outcome.failure.reason }
        return data(answer satisfies ChannelDeleteResponse, outcome.failure.status)
      }
      if (formData.has('noscript')) return redirect(CHANNELS_PATH)
      const answer = { intent, channelId, deleted: true, warning: outcome.value.warning ?? null, error: null }
      return data(answer satisfies ChannelDeleteResponse)
    }
  }
  throw data('Unknown intent', 400)
}

export default function ChannelsPage() {
  const { channels, agents, otherAgents, hasOrganization, meta } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <ChannelsScreen
      channels={channels}
      agents={agents}
      otherAgents={otherAgents}
      hasOrganization={hasOrganization}
      meta={meta}
      noScriptData={actionData}
    />
  )
}
