/**
 * A client navigation that a newer one (or a full page load) interrupts rejects with an AbortError. That is not
 * a failure of the page: swallow it rather than leave an unhandled rejection.
 */
export function ignoreInterruption(result: void | Promise<void>): void {
  if (result instanceof Promise) result.catch(() => undefined)
}
