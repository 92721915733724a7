import { getZodConstraint } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { answerInvitationSchema, inviteMemberSchema } from './schemas'

describe('the invite form', () => {
  it('trims and lowercases the email, and refuses what is not one', () => {
    expect(inviteMemberSchema.parse({ email: '  Ada@Example.COM ' })).toEqual({ email: 'ada@example.com' })
    const errors = (value: unknown) =>
      inviteMemberSchema.safeParse({ email: value }).error?.issues[0]?.message
    expect(errors('   ')).toBe('Email is required')
    expect(errors(undefined)).toBe('Email is required')
    expect(errors('not an email')).toBe('Please enter a valid email address.')
    expect(errors(`${'a'.repeat(250)}@example.com`)).toBe('Email must be at most 254 characters')
  })

  it('is required for the browser too', () => {
    expect(getZodConstraint(inviteMemberSchema).email).toMatchObject({ required: true })
  })

  it('an answer names an invitation by UUID', () => {
    expect(answerInvitationSchema.safeParse({ intent: 'accept-invitation', invitationId: 'x' }).success).toBe(
      false,
    )
    expect(
      answerInvitationSchema.safeParse({
        intent: 'decline-invitation',
        invitationId: '00000000-0000-4000-8000-000000000000',
      }).success,
    ).toBe(true)
  })
})
