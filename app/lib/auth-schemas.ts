import { z } from 'zod'
import { PASSWORD_MIN_LENGTH } from './constants'

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Please enter a valid email address.'))

export const signInSchema = z.object({
  intent: z.literal('sign-in'),
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  redirectTo: z.string().optional(),
})

/** The live checklist on the sign-up form, in the spec's order and words. */
export const PASSWORD_RULES = [
  {
    label: 'At least 6 characters',
    message: 'Password must be at least 6 characters',
    test: (p: string) => p.length >= PASSWORD_MIN_LENGTH,
  },
  {
    label: 'One uppercase letter',
    message: 'Include at least one uppercase letter',
    test: (p: string) => /[A-Z]/.test(p),
  },
  {
    label: 'One lowercase letter',
    message: 'Include at least one lowercase letter',
    test: (p: string) => /[a-z]/.test(p),
  },
  { label: 'One number', message: 'Include at least one number', test: (p: string) => /\d/.test(p) },
] as const

export const signUpSchema = z
  .object({
    intent: z.literal('sign-up'),
    displayName: z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(100),
    email,
    password: PASSWORD_RULES.reduce(
      (schema, rule) => schema.refine(rule.test, rule.message),
      z.string({ error: 'Password must be at least 6 characters' }),
    ),
    confirmPassword: z.string({ error: 'Passwords do not match' }),
    redirectTo: z.string().optional(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  })

export const resetSchema = z.object({
  intent: z.literal('reset'),
  email,
})

export const googleSignInSchema = z.object({
  intent: z.literal('google'),
  idToken: z.string().min(1),
  redirectTo: z.string().optional(),
})
