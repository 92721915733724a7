import { Outlet, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { useCallback, useState } from 'react'
import { AppShell } from '~/components/layout/app-shell'
import { CreateOrganizationDialog } from '~/components/organizations/create-organization-dialog'
import { OrganizationSwitcher } from '~/components/organizations/organization-switcher'
import { useCurrentOrganizationStorage } from '~/components/organizations/use-current-organization-storage'
import { readSidebarOpen } from '~/lib/shared/sidebar'
import { ChannelHealthBanner } from '~/components/channels/health-banner'
import { getChannelsHealth } from '~/services/channels/health.server'
import { countNeedingAttention } from '~/services/conversations/inbox.server'
import { countUnreadNotifications } from '~/services/notifications/bell.server'
import { NotificationBell } from '~/components/notifications/notification-bell'
import { useNotificationBell } from '~/components/notifications/use-notification-bell'
import { NotificationSignal } from '~/components/hooks/use-inbox-events'
import { useAttentionCount, useCountInTitle } from '~/components/hooks/use-attention-count'
import { listMyInvitations } from '~/services/organizations/invitations.server'
import { resolveCurrentOrganization } from '~/services/organizations/organizations.server'
import { requireSignedIn } from '~/http/auth.server'
import { getRuntime } from '~/runtime/runtime.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session } = await requireSignedIn(request)
  const { database, identity } = await getRuntime()
  const [{ organizations, current }, received] = await Promise.all([
    resolveCurrentOrganization({
      db: database.db,
      userId: user.id,
      sessionId: session.id,
      storedId: session.currentOrganizationId,
    }),
    listMyInvitations({ db: database.db, identity, userId: user.id }),
  ])
  // The current organization is one of the user's (resolveCurrentOrganization lists their memberships).
  const [health, needsAttention, notificationsUnread] = current
    ? await Promise.all([
        getChannelsHealth(database.db, current.id),
        countNeedingAttention(database.db, current.id),
        countUnreadNotifications(database.db, { userId: user.id, organizationId: current.id }),
      ])
    : [[], 0, 0]
  return {
    user: { uid: user.firebaseUid, displayName: user.displayName, email: user.email },
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
    organizations,
    currentOrganization: current,
    /** Pending invitations to the signed-in user, answered in the switcher (or on /organization). */
    invitations: received.invitations.map(({ id, organizationName, invitedBy }) => ({
      id,
      organizationName,
      invitedBy,
    })),
    /** Invitations to the user's address, waiting until they confirm it is theirs (not named until then). */
    awaitingEmail: received.awaitingEmail,
    /** The session had no choice yet (a new sign-in): the browser's stored choice may take over. */
    currentDefaulted: session.currentOrganizationId === null,
    /** Conversations that need a person: the sidebar's count and the tab title's (docs/decisions/055). */
    needsAttention,
    /** The member's unread notifications: the bell's count (docs/decisions/068). */
    notificationsUnread,
    /** The banner's channels: those that need attention, each with its first reason (docs/decisions/046). */
    attention: health
      .filter((channel) => channel.status === 'attention')
      .map(({ channelId, name, reasons }) => ({ channelId, name, reason: reasons[0]?.message ?? '' })),
  }
}

// Each navigation re-checks the session (a disabled account is signed out at its next request).
export const shouldRevalidate: ShouldRevalidateFunction = () => true

export default function AppLayout() {
  const {
    sidebarOpen,
    organizations,
    currentOrganization,
    currentDefaulted,
    invitations,
    awaitingEmail,
    attention,
    needsAttention: initialNeedsAttention,
    notificationsUnread,
  } = useLoaderData<typeof loader>()
  const bell = useNotificationBell(notificationsUnread)
  const needsAttention = useAttentionCount(initialNeedsAttention, currentOrganization?.id, bell.refresh)
  useCountInTitle(needsAttention)
  // The create dialog opens by itself while the user has no organization (the spec's modal flag).
  const [createOpen, setCreateOpen] = useState(organizations.length === 0)
  const closeCreate = useCallback(() => setCreateOpen(false), [])
  useCurrentOrganizationStorage({ organizations, current: currentOrganization, defaulted: currentDefaulted })

  return (
    <NotificationSignal.Provider value={bell.refresh}>
      <AppShell
        initialOpen={sidebarOpen}
        headerEnd={currentOrganization ? <NotificationBell bell={bell} /> : null}
        banner={<ChannelHealthBanner channels={attention} />}
        needsAttention={needsAttention}
        organizationSwitcher={
          <OrganizationSwitcher
            organizations={organizations}
            current={currentOrganization}
            invitations={invitations}
            awaitingEmail={awaitingEmail}
            onCreate={() => setCreateOpen(true)}
          />
        }
      >
        <Outlet />
        <CreateOrganizationDialog opened={createOpen} onClose={closeCreate} invitations={invitations} />
      </AppShell>
    </NotificationSignal.Provider>
  )
}
