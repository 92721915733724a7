/** Codes a service may fail with; routes and the API map them to status codes in one place. */
export type AppErrorCode =
  | 'VALIDATION_ERROR'
  | 'AUTH_FAILED'
  | 'AUTH_TOKEN_INVALID'
  | 'AUTH_TOKEN_MISSING'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'SERVER_ERROR'

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
