/** Any origin of ours would do: the target is resolved against it and only its path, query and hash are kept. */
const OWN_ORIGIN = 'http://replypilot.invalid'
/** Browsers strip tabs and newlines from URLs and read a backslash as a slash: `/\t/evil.example` is `//evil.example`. */
function hasUnsafeCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true
  }
  return false
}

/**
 * Only paths on our own origin: an open redirect would let a link send a signed-in user anywhere. The target is
 * resolved with `new URL` (as a browser would), must stay on our origin, and comes back as path, query and hash.
 */
export function safeRedirectPath(
  value: FormDataEntryValue | string | null | undefined,
  fallback = '/',
): string {
  if (typeof value !== 'string' || !value.startsWith('/') || hasUnsafeCharacter(value)) return fallback
  let url: URL
  try {
    url = new URL(value, OWN_ORIGIN)
  } catch {
    return fallback
  }
  const target = `${url.pathname}${url.search}${url.hash}`
  // `/.//evil.example` resolves to the path `//evil.example`, which a Location header reads as another host.
  if (url.origin !== OWN_ORIGIN || target.startsWith('//')) return fallback
  return target
}
