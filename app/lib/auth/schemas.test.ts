import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { signInSchema, signUpSchema } from './schemas'

function form(values: Record<string, string>) {
  const data = new FormData()
  for (const [k, v] of Object.entries(values)) data.set(k, v)
  return data
}

function signUpErrors(password: string, confirmPassword = password) {
  const submission = parseWithZod(
    form({ intent: 'sign-up', displayName: 'Ada', email: 'ada@example.com', password, confirmPassword }),
    { schema: signUpSchema },
  )
  return submission.status === 'error' ? submission.error : undefined
}

describe('sign-up password rules', () => {
  it('gives each of the spec messages', () => {
    expect(signUpErrors('Ab1')?.password).toContain('Password must be at least 6 characters')
    expect(signUpErrors('abcdef1')?.password).toContain('Include at least one uppercase letter')
    expect(signUpErrors('ABCDEF1')?.password).toContain('Include at least one lowercase letter')
    expect(signUpErrors('Abcdefg')?.password).toContain('Include at least one number')
    expect(signUpErrors('Abcdef1', 'Abcdef2')?.confirmPassword).toEqual(['Passwords do not match'])
  })

  it('accepts a password that meets every rule', () => {
    expect(signUpErrors('Abcdef1')).toBeUndefined()
  })
})

describe('Conform constraints from zod', () => {
  // zod 4.6 silently dropped min/max from getZodConstraint; this catches an upgrade that brings that back.
  it('keep required and minLength for the sign-in form', () => {
    const constraint = getZodConstraint(signInSchema)
    expect(constraint.password).toMatchObject({ required: true, minLength: 6 })
    expect(constraint.email).toMatchObject({ required: true })
  })
})
