/** Codes a service may fail with; routes and the API map them to status codes in one place. */
export type AppErrorCode =
  | 'VALIDATION_ERROR'
  | 'AUTH_FAILED'
  | 'AUTH_TOKEN_INVALID'
  | 'AUTH_TOKEN_MISSING'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'INVALID_PLATFORM'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'SERVER_ERROR'
  | 'UPSTREAM_ERROR'
  | 'NOT_CONFIGURED'

/** A failure a service means to report: its message is safe to show to the person who caused it. */
export class AppError extends Error {
  constructor(
    public readonly code: AppErrorCode,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code)
}

/** For a `.catch`: a NOT_FOUND failure becomes null (nothing to show), any other is thrown on. */
export function nullIfNotFound(error: unknown): null {
  if (isAppError(error, 'NOT_FOUND')) return null
  throw error
}

/** The one mapping from a failure code to an HTTP status and the spec's default message (section 8). */
export const ERROR_STATUS: Record<AppErrorCode, { status: number; message: string }> = {
  VALIDATION_ERROR: { status: 400, message: 'Invalid request data' },
  AUTH_FAILED: { status: 401, message: 'Authentication failed' },
  AUTH_TOKEN_INVALID: { status: 401, message: 'Authentication token is invalid or expired' },
  AUTH_TOKEN_MISSING: { status: 403, message: 'Authentication token is missing' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  INVALID_PLATFORM: { status: 404, message: 'Platform not found' },
  CONFLICT: { status: 409, message: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded' },
  SERVER_ERROR: { status: 500, message: 'Internal server error' },
  UPSTREAM_ERROR: { status: 502, message: 'Service temporarily unavailable' },
  NOT_CONFIGURED: { status: 503, message: 'Service temporarily unavailable' },
}
