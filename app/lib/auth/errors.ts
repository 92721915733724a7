/**
 * The one place where the identity provider's error codes become texts a person can act on.
 * REST codes (EMAIL_EXISTS, "WEAK_PASSWORD : ...") and client SDK codes (auth/popup-closed-by-user) both land here.
 */
const MESSAGES: Record<string, string> = {
  EMAIL_EXISTS: 'An account with this email already exists. Sign in instead.',
  'email-already-in-use': 'An account with this email already exists. Sign in instead.',
  EMAIL_NOT_FOUND: 'Incorrect email or password.',
  INVALID_PASSWORD: 'Incorrect email or password.',
  INVALID_LOGIN_CREDENTIALS: 'Incorrect email or password.',
  'invalid-credential': 'Incorrect email or password.',
  'wrong-password': 'Incorrect email or password.',
  'user-not-found': 'Incorrect email or password.',
  USER_DISABLED: 'This account has been disabled. Contact your administrator.',
  'user-disabled': 'This account has been disabled. Contact your administrator.',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'Too many attempts. Please wait a moment and try again.',
  'too-many-requests': 'Too many attempts. Please wait a moment and try again.',
  WEAK_PASSWORD: 'Password must be at least 6 characters',
  'weak-password': 'Password must be at least 6 characters',
  'password-does-not-meet-requirements': 'The password does not meet the requirements.',
  INVALID_EMAIL: 'Please enter a valid email address.',
  'invalid-email': 'Please enter a valid email address.',
  MISSING_PASSWORD: 'Please enter your password.',
  MISSING_EMAIL: 'Please enter your email.',
  EXPIRED_OOB_CODE: 'This link has expired. Request a new one.',
  'expired-action-code': 'This link has expired. Request a new one.',
  INVALID_OOB_CODE: 'This link is not valid any more. Request a new one.',
  'invalid-action-code': 'This link is not valid any more. Request a new one.',
  CREDENTIAL_TOO_OLD_LOGIN_AGAIN: 'Please sign in again to continue.',
  'requires-recent-login': 'Please sign in again to continue.',
  OPERATION_NOT_ALLOWED: 'This sign-in method is not enabled for this project.',
  'operation-not-allowed': 'This sign-in method is not enabled for this project.',
  'popup-closed-by-user': 'The Google sign-in window was closed before signing in.',
  'cancelled-popup-request': 'The Google sign-in window was closed before signing in.',
  'popup-blocked':
    'The browser blocked the Google sign-in window. Allow pop-ups for this site and try again.',
  'network-request-failed': 'Network error - unable to reach the sign-in service. Please try again.',
  NETWORK_ERROR: 'Network error - unable to reach the sign-in service. Please try again.',
  ID_TOKEN_INVALID: 'Your sign-in could not be verified. Please try again.',
  'id-token-revoked': 'Your session was ended. Please sign in again.',
}

export const GENERIC_AUTH_ERROR = 'Sign-in failed. Please try again.'

/** `"WEAK_PASSWORD : Password should be..."` → `WEAK_PASSWORD`; `"auth/user-disabled"` → `user-disabled`. */
export function normalizeAuthErrorCode(raw: string): string {
  return raw
    .split(' : ')[0]
    .trim()
    .replace(/^auth\//, '')
}

export function authErrorMessage(raw: string | undefined): string {
  if (!raw) return GENERIC_AUTH_ERROR
  return MESSAGES[normalizeAuthErrorCode(raw)] ?? GENERIC_AUTH_ERROR
}
