import { useFetcher } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { CURRENT_ORGANIZATION_STORAGE_KEY } from '~/lib/shared/constants'
import type { OrganizationSummary } from '~/lib/organizations/schemas'

function readStoredId(): string | undefined {
  try {
    const parsed: unknown = JSON.parse(
      window.localStorage.getItem(CURRENT_ORGANIZATION_STORAGE_KEY) ?? 'null',
    )
    return parsed && typeof parsed === 'object' && 'id' in parsed && typeof parsed.id === 'string'
      ? parsed.id
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Mirrors the session's current organization to localStorage (the spec's key), and on a new sign-in — when the
 * server had no choice yet and took the first — restores the stored one if the user still belongs to it.
 */
export function useCurrentOrganizationStorage({
  organizations,
  current,
  defaulted,
}: {
  organizations: OrganizationSummary[]
  current: OrganizationSummary | undefined
  defaulted: boolean
}) {
  const fetcher = useFetcher()
  const restored = useRef(false)

  useEffect(() => {
    if (defaulted && !restored.current) {
      restored.current = true
      const storedId = readStoredId()
      if (storedId && storedId !== current?.id && organizations.some((o) => o.id === storedId)) {
        fetcher.submit(
          { intent: 'switch', organizationId: storedId },
          { method: 'post', action: '/organization' },
        )
        return
      }
    }
    if (current) {
      const { id, name, plan, role } = current
      window.localStorage.setItem(CURRENT_ORGANIZATION_STORAGE_KEY, JSON.stringify({ id, name, plan, role }))
    } else {
      window.localStorage.removeItem(CURRENT_ORGANIZATION_STORAGE_KEY)
    }
  }, [current, organizations, defaulted, fetcher])
}
