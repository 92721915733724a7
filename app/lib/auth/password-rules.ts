import { PASSWORD_MIN_LENGTH } from '~/lib/shared/constants'

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
