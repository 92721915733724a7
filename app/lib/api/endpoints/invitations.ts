import { z } from 'zod'
import { INVITATION_STATUSES, inviteMemberSchema, ORGANIZATION_ROLES } from '~/lib/organizations/schemas'
import { defineEndpoint } from '~/lib/api/contract'
import { organizationSchema, orgParams } from './shared'

/** An invitation as the organization's owners see it: by uid, the invitee is "Invited user", never an email. */
export const organizationInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string().nullable(),
  invitee: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  status: z.enum(INVITATION_STATUSES),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
})

/** An invitation as its invitee sees it. */
const receivedInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
})

const invitationId = z.uuid('Invalid invitation id')

export const invitationEndpoints = {
  listInvitations: defineEndpoint({
    method: 'GET',
    path: '/organizations/{orgId}/invitations',
    operationId: 'listInvitations',
    summary: "The organization's pending invitations (owners only)",
    tag: 'Invitations',
    params: orgParams,
    response: z.array(organizationInvitationSchema),
  }),
  createInvitation: defineEndpoint({
    method: 'POST',
    path: '/organizations/{orgId}/invitations',
    operationId: 'createInvitation',
    summary:
      'Invite a person by email (owners only; trimmed and lowercased). An already pending invitation is answered again; a member is a 409',
    tag: 'Invitations',
    params: orgParams,
    body: inviteMemberSchema,
    response: organizationInvitationSchema,
    successStatus: 201,
  }),
  revokeInvitation: defineEndpoint({
    method: 'DELETE',
    path: '/organizations/{orgId}/invitations/{invitationId}',
    operationId: 'revokeInvitation',
    summary: 'Withdraw a pending invitation (owners only)',
    tag: 'Invitations',
    params: orgParams.extend({ invitationId }),
    response: z.null(),
  }),
  listMyInvitations: defineEndpoint({
    method: 'GET',
    path: '/invitations',
    operationId: 'listMyInvitations',
    summary:
      "The caller's pending invitations: to their user id, or to the email of their sign-in account (one per organization)",
    tag: 'Invitations',
    response: z.array(receivedInvitationSchema),
    public: true,
  }),
  acceptInvitation: defineEndpoint({
    method: 'POST',
    path: '/invitations/{invitationId}/accept',
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation (only its invitee): the caller becomes a member',
    tag: 'Invitations',
    params: z.object({ invitationId }),
    response: organizationSchema,
    public: true,
  }),
  declineInvitation: defineEndpoint({
    method: 'POST',
    path: '/invitations/{invitationId}/decline',
    operationId: 'declineInvitation',
    summary: 'Decline an invitation (only its invitee)',
    tag: 'Invitations',
    params: z.object({ invitationId }),
    response: z.null(),
    public: true,
  }),
}
