import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { requireSignedIn } from '~/http/auth.server'
import { pushSubscriptionSchema } from '~/lib/notifications/notifications'
import { getRuntime } from '~/runtime/runtime.server'
import {
  countPushSubscriptions,
  removePushSubscription,
  savePushSubscription,
} from '~/services/notifications/push.server'

// The signed-in member's Web Push subscriptions (docs/decisions/068), for Notification settings' push switch:
// GET gives the server's public key, POST keeps or forgets this browser's subscription.

const NO_STORE = { 'Cache-Control': 'private, no-store' }

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request)
  const { database, config } = await getRuntime()
  const subscriptions = await countPushSubscriptions(database.db, user.id)
  return Response.json({ publicKey: config.push?.publicKey ?? null, subscriptions }, { headers: NO_STORE })
}

const bodySchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('subscribe'), subscription: pushSubscriptionSchema }),
  z.object({ intent: z.literal('unsubscribe'), endpoint: pushSubscriptionSchema.shape.endpoint }),
])

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireSignedIn(request)
  let body: unknown
  try {
    body = await request.json()
  } catch {
    throw data({ error: 'The request must be JSON' }, 400)
  }
  const parsed = bodySchema.safeParse(body)
  if (!parsed.success) throw data({ error: parsed.error.issues[0]?.message ?? 'Invalid request' }, 400)
  const { database } = await getRuntime()
  if (parsed.data.intent === 'subscribe')
    await savePushSubscription(database.db, user.id, parsed.data.subscription)
  else await removePushSubscription(database.db, user.id, parsed.data.endpoint)
  const subscriptions = await countPushSubscriptions(database.db, user.id)
  return Response.json({ subscriptions }, { headers: NO_STORE })
}
