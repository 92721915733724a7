import { getZodConstraint } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { answerInvitationSchema, createOrganizationSchema, inviteMemberSchema } from './schemas'

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

describe('the Create Organization form', () => {
  it("keeps the browser's time zone when this server knows it, and drops it otherwise", () => {
    expect(createOrganizationSchema.parse({ name: ' Padaria ', timeZone: 'America/Sao_Paulo' })).toEqual({
      name: 'Padaria',
      timeZone: 'America/Sao_Paulo',
    })
    expect(createOrganizationSchema.parse({ name: 'Padaria', timeZone: 'Mars/Olympus' })).toEqual({
      name: 'Padaria',
      timeZone: undefined,
    })
    expect(createOrganizationSchema.parse({ name: 'Padaria' }).timeZone).toBeUndefined()
    expect(createOrganizationSchema.safeParse({ name: ' ', timeZone: 'UTC' }).error?.issues[0]?.message).toBe(
      'Organization name is required',
    )
  })
})
