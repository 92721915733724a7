import { z } from 'zod'
import { defineEndpoint } from '~/lib/api/contract'
import { externalId, organizationSchema } from './shared'

const profileSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  createdAt: z.string(),
  organizations: z.array(organizationSchema),
})

export const userEndpoints = {
  getProfile: defineEndpoint({
    method: 'POST',
    path: '/users/{uid}',
    operationId: 'getProfile',
    summary: "The caller's profile with its organizations (only for the caller's own uid)",
    tag: 'Profile',
    params: z.object({ uid: externalId }),
    response: profileSchema,
    public: true,
  }),
}
