import { Outlet, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { AppShell } from '~/components/layout/app-shell'
import { readSidebarOpen } from '~/lib/sidebar'
import { requireSignedIn } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request)
  return {
    user: { uid: user.firebaseUid, displayName: user.displayName, email: user.email },
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
  }
}

// Each navigation re-checks the session (a disabled account is signed out at its next request).
export const shouldRevalidate: ShouldRevalidateFunction = () => true

export default function AppLayout() {
  const { sidebarOpen } = useLoaderData<typeof loader>()
  return (
    <AppShell initialOpen={sidebarOpen}>
      <Outlet />
    </AppShell>
  )
}
