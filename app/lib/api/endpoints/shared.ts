import { z } from 'zod'
import { idSchema } from '~/lib/shared/input'
import { ORGANIZATION_PLANS, ORGANIZATION_ROLES } from '~/lib/organizations/schemas'

/** An identifier that is not one of our rows' (a Firebase uid). */
export const externalId = z.string().min(1).max(200)
export const orgParams = z.object({ orgId: idSchema })

/** Any text: an unknown platform is the spec's 404 "Platform not found", not a validation error. */
export const platformParams = z.object({ platform: z.string().min(1).max(50) })

/** An organization with the caller's role in it (the profile, the organization calls and invitations answer it). */
export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.enum(ORGANIZATION_PLANS),
  role: z.enum(ORGANIZATION_ROLES),
})
