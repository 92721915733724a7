import { z } from 'zod'
import { timeZoneSchema } from '~/lib/analytics/analytics'
import { requiredOr } from '~/lib/shared/input'
import {
  autoResolveHoursSchema,
  mediaRetentionDaysSchema,
  organizationNameSchema,
  ORGANIZATION_ROLES,
} from '~/lib/organizations/schemas'
import { defineEndpoint } from '~/lib/api/contract'
import { organizationInvitationSchema } from './invitations'
import { externalId, organizationSchema, orgParams } from './shared'

const organizationDetailSchema = organizationSchema.extend({
  timeZone: z.string().meta({ description: 'The IANA time zone the dashboard counts days and hours in' }),
  autoResolveHours: z.number().int().meta({
    description:
      'The AI resolves a conversation it answered alone once the customer is quiet this long; 0: never',
  }),
  mediaRetentionDays: z.number().int().meta({
    description: "Customers' voice notes, photos and documents are deleted this many days after they arrived",
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
})

const memberSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  role: z.enum(ORGANIZATION_ROLES),
})

export const organizationEndpoints = {
  createOrganization: defineEndpoint({
    method: 'POST',
    path: '/organizations',
    operationId: 'createOrganization',
    summary: 'Create an organization; the caller becomes its owner, on the free plan',
    tag: 'Organizations',
    body: z.object({
      name: organizationNameSchema,
      plan: z.literal('free', { error: 'A new organization is on the free plan' }).default('free'),
    }),
    response: organizationSchema,
    successStatus: 201,
    public: true,
  }),
  listOrganizations: defineEndpoint({
    method: 'GET',
    path: '/organizations',
    operationId: 'listOrganizations',
    summary: "The caller's organizations with its role in each",
    tag: 'Organizations',
    response: z.array(organizationSchema),
    public: true,
  }),
  getOrganization: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}',
    operationId: 'getOrganization',
    summary: 'One organization the caller belongs to',
    tag: 'Organizations',
    params: orgParams,
    response: organizationDetailSchema,
  }),
  updateOrganization: defineEndpoint({
    method: 'PATCH',
    path: '/organizations/{orgId}',
    operationId: 'updateOrganization',
    summary:
      "Rename an organization, set its time zone, its AI resolution period or how long customers' files are kept (owners only): the fields given change, the others stay",
    tag: 'Organizations',
    params: orgParams,
    body: z
      .object({
        name: organizationNameSchema.optional(),
        timeZone: timeZoneSchema.optional(),
        autoResolveHours: autoResolveHoursSchema.optional(),
        mediaRetentionDays: mediaRetentionDaysSchema.optional(),
      })
      .refine((body) => Object.values(body).some((value) => value !== undefined), {
        message: "Give a name, a time zone, an AI resolution period or a files' retention period to change",
      }),
    response: organizationDetailSchema,
  }),
  deleteOrganization: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}',
    operationId: 'deleteOrganization',
    summary: 'Delete an organization and everything in it (owners only)',
    tag: 'Organizations',
    params: orgParams,
    response: z.null(),
  }),
  addMember: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/members',
    operationId: 'addMember',
    summary:
      'Invite a user (by uid) to become a member (owners only): they join when they accept. Answers the invitation, never their email; an already pending one is answered again',
    tag: 'Organizations',
    params: orgParams,
    body: z.object({
      memberId: z
        .string({ error: requiredOr('Member ID is required', 'Member ID must be text') })
        .min(1, 'Member ID is required')
        .max(200, 'Member ID must be at most 200 characters'),
    }),
    response: organizationInvitationSchema,
    successStatus: 201,
  }),
  removeMember: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/members/{memberId}',
    operationId: 'removeMember',
    summary: 'Remove a member (owners only; the last owner stays)',
    tag: 'Organizations',
    params: orgParams.extend({ memberId: externalId }),
    response: z.array(memberSchema),
  }),
  leaveOrganization: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/leave',
    operationId: 'leaveOrganization',
    summary: 'Leave an organization (any member; not its last owner)',
    tag: 'Organizations',
    params: orgParams,
    response: z.null(),
  }),
}
