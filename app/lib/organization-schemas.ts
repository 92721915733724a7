import { z } from 'zod'
import { hasNoNul, NUL_MESSAGE } from './input'

export const ORGANIZATION_NAME_MAX = 100

export const organizationNameSchema = z
  .string({ error: 'Organization name is required' })
  .trim()
  .min(1, 'Organization name is required')
  .max(ORGANIZATION_NAME_MAX, `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters`)
  .refine(hasNoNul, NUL_MESSAGE)

/** The Create Organization dialog's form (and the API body, which may also name the plan). */
export const createOrganizationSchema = z.object({ name: organizationNameSchema })

export const ORGANIZATION_PLANS = ['free', 'pro', 'enterprise'] as const
export const ORGANIZATION_ROLES = ['owner', 'member'] as const

export type OrganizationSummary = {
  id: string
  name: string
  plan: (typeof ORGANIZATION_PLANS)[number]
  role: (typeof ORGANIZATION_ROLES)[number]
}
