/** Product constants from the specification (section 9), named once. */
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TEXTS } from '~/lib/conversations/attachments'
export const PRODUCT_NAME = 'ReplyPilot'
export const PRODUCT_SHORT_NAME = 'replypilot'
export const PRODUCT_TAGLINE = 'AI Powered Reply Automation'
export const PRODUCT_VERSION = '1.0.0'

export const PASSWORD_MIN_LENGTH = 6
export const ALREADY_LOGGED_IN_REDIRECT_MS = 3000
export const RESET_SUCCESS_RETURN_MS = 3000

export const SIDEBAR_COOKIE_NAME = 'sidebar_state'
export const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 7
export const SIDEBAR_WIDTH_MOBILE = '18rem'
export const MOBILE_BREAKPOINT_PX = 768
export const SIDEBAR_SHORTCUT = 'mod+B'

export const TOAST_LIMIT = 3
export const TOAST_AUTO_CLOSE_MS = 4000
export const TOAST_WIDTH_PX = 356
export const TOOLTIP_DELAY_MS = 700

export const CURRENT_ORGANIZATION_STORAGE_KEY = `${PRODUCT_SHORT_NAME}:current-organization`

/** How long a pending protected page may take before the full-screen "Loading..." shows. */
export const LOADING_SCREEN_DELAY_MS = 300

/**
 * The largest request body the HTTP entry reads, before Remix or a route sees it: forms and the product API's JSON
 * (webhooks have their own, the same, in WEBHOOK_MAX_BODY_BYTES); a path that takes uploads names its own, larger.
 */
/**
 * The largest file a knowledge upload may be (issue #18), and what a larger one is told. Here, not beside the
 * knowledge schemas: this module is read by the HTTP entry and by every page, and must not build zod schemas before
 * content-security-policy.ts has switched zod's JIT off (its probe of `new Function` is a CSP violation).
 */
export const UPLOAD_FILE_MAX_BYTES = 10 * 1024 * 1024
export const FILE_TOO_LARGE_MESSAGE = 'The file is larger than 10 MB'

/** Room for an upload's other fields and multipart framing, and so that a file just past 10 MB gets the form's message. */
const UPLOAD_FORM_SLACK_BYTES = 1024 * 1024

export const REQUEST_BODY_LIMITS: {
  default: number
  byPath: { pattern: RegExp; maxBytes: number; tooLarge?: string }[]
} = {
  default: 1024 * 1024,
  byPath: [
    // Knowledge uploads (docs/decisions/045): a 10 MB file and its form's other fields. The upload's parser refuses
    // a file part past 10 MB itself, with the form's own message; a body past this is refused before it is read.
    {
      pattern: /^(\/knowledge\/(new\/file|upload)(\.data)?|\/api\/v1\/organizations\/[^/]+\/knowledge)$/,
      maxBytes: UPLOAD_FILE_MAX_BYTES + UPLOAD_FORM_SLACK_BYTES,
      tooLarge: FILE_TOO_LARGE_MESSAGE,
    },
    // A person's reply with a picture or a document (docs/decisions/076): the file and the reply's text.
    {
      pattern: /^\/conversations\/[^/]+\/reply(\.data)?$/,
      maxBytes: ATTACHMENT_MAX_BYTES + UPLOAD_FORM_SLACK_BYTES,
      tooLarge: ATTACHMENT_TEXTS.requestTooLarge,
    },
  ],
}
