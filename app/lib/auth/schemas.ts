import { z } from 'zod'
import { PASSWORD_MIN_LENGTH } from '~/lib/shared/constants'
import { PASSWORD_RULES } from './password-rules'
import { hasNoNul, NUL_MESSAGE } from '~/lib/shared/input'

export { PASSWORD_RULES }

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

export const signUpSchema = z
  .object({
    intent: z.literal('sign-up'),
    displayName: z
      .string({ error: 'Full name is required' })
      .trim()
      .min(1, 'Full name is required')
      .max(100)
      .refine(hasNoNul, NUL_MESSAGE),
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
