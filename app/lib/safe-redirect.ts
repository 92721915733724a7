/** Only same-site paths: an open redirect would let a link send a signed-in user anywhere. */
export function safeRedirectPath(
  value: FormDataEntryValue | string | null | undefined,
  fallback = '/',
): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\')
  ) {
    return fallback
  }
  return value
}
