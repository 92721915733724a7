import { Api, GrammyError, HttpError, InputFile } from 'grammy'
import type { Update } from 'grammy/types'
import { downloadMedia, MediaError } from '~/integrations/media/download.server'
import { OUTBOUND_FILE_UPLOAD_EXTRA_MS, type OutboundFile } from '~/integrations/outbound-file'
import { MEDIA_FAILURES, MEDIA_FETCH_TIMEOUT_MS } from '~/lib/conversations/media'
import {
  PLATFORM_REQUEST_TIMEOUT_MS,
  PlatformError,
  platformErrorFromStatus,
} from '~/integrations/platform-errors'

export { PlatformError } from '~/integrations/platform-errors'

export type TelegramConfig = {
  /** `https://api.telegram.org` in production, a local fake in tests. A trailing slash is removed. */
  apiRoot: string
  /** Per request; a long poll gets its own polling time on top. */
  timeoutMs?: number
}

export type TelegramBotInfo = {
  id: number
  username: string
  firstName: string
  canJoinGroups: boolean
  canReadAllGroupMessages: boolean
  supportsInlineQueries: boolean
}

export type TelegramWebhookInfo = { url: string; pendingUpdateCount: number; lastErrorMessage?: string }

/** The kinds of update a bot can ask for (`message`, `edited_message`, ...). */
export type TelegramUpdateKind = Exclude<keyof Update, 'update_id'>

/** An update as getUpdates hands it over (grammY's type); what we read of it is checked by telegramUpdateSchema. */
export type TelegramUpdate = Update

export type TelegramClient = {
  getMe(token: string): Promise<TelegramBotInfo>
  setWebhook(
    token: string,
    options: { url: string; secretToken: string; allowedUpdates?: TelegramUpdateKind[] },
  ): Promise<void>
  deleteWebhook(token: string, options?: { dropPendingUpdates?: boolean }): Promise<void>
  getWebhookInfo(token: string): Promise<TelegramWebhookInfo>
  sendMessage(
    token: string,
    options: { chatId: number | string; text: string; replyToMessageId?: number },
  ): Promise<{ messageId: number }>
  /**
   * A photo (sendPhoto: Telegram shows it, at most 10 MB) or a file (sendDocument: at most 50 MB), with its caption
   * (1024 characters at most). The upload gets OUTBOUND_FILE_UPLOAD_EXTRA_MS on top of the request's time.
   */
  sendFile(
    token: string,
    options: { chatId: number | string; file: OutboundFile },
  ): Promise<{ messageId: number }>
  sendChatAction(token: string, options: { chatId: number | string; action: 'typing' }): Promise<void>
  /**
   * Long polling: waits up to `timeoutSeconds` (default 0) for updates after `offset`. Aborting `signal`
   * rejects with the signal's reason, not a PlatformError.
   */
  getUpdates(
    token: string,
    options?: {
      offset?: number
      timeoutSeconds?: number
      allowedUpdates?: TelegramUpdateKind[]
      signal?: AbortSignal
    },
  ): Promise<TelegramUpdate[]>
  /**
   * A file a customer sent (getFile, then the download), at most `maxBytes`: a larger one, or one Telegram no
   * longer has, is a MediaError. The Bot API serves files up to 20 MB.
   */
  downloadFile(
    token: string,
    options: { fileId: string; maxBytes: number; signal?: AbortSignal },
  ): Promise<Buffer>
}

/** The Bot API's own limit on the files a bot may download. */
export const TELEGRAM_FILE_MAX_BYTES = 20 * 1024 * 1024

/** What the user sees when Telegram refuses the token (spec section 8, connection messages). */
export const BOT_TOKEN_INVALID_MESSAGE = 'Bot token is invalid or expired'

// Telegram tokens are `<digits>:<[A-Za-z0-9_-]>`. The token goes into the URL path, so anything else (a slash, a
// dot, a question mark...) could address another URL on the API root: refuse it before any request.
const TOKEN_CHARACTERS = /^[A-Za-z0-9:_-]+$/

// grammY's own timer (default 500 s!) is only a backstop behind ours, which tells a timeout from other aborts.
const GRAMMY_BACKSTOP_SECONDS = 5

// grammY 1.x on Node types `signal` as the abort-controller polyfill's AbortSignal, which a native one does not
// match (grammY issue #598, fixed for 2.0). At run time it only reads `aborted` and calls add/removeEventListener
// (it checks the same way itself), so this guard checks exactly that instead of casting.
type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>
function isGrammySignal(signal: AbortSignal): signal is AbortSignal & GrammySignal {
  return (
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  )
}

/**
 * The Bot API for every bot: one client, the token per call. Each call throws a PlatformError('telegram') whose
 * message and fields never contain the token (grammY's network errors hold the request URL, token included, in
 * their `error`; nothing of them is kept).
 */
export function createTelegramClient(config: TelegramConfig): TelegramClient {
  const apiRoot = config.apiRoot.replace(/\/+$/, '')
  const timeoutMs = config.timeoutMs ?? PLATFORM_REQUEST_TIMEOUT_MS

  async function call<T>(
    token: string,
    run: (api: Api, signal: GrammySignal) => Promise<T>,
    options: { signal?: AbortSignal; extraMs?: number } = {},
  ): Promise<T> {
    if (!TOKEN_CHARACTERS.test(token)) {
      throw new PlatformError('telegram', 'AUTH_TOKEN_INVALID', { message: BOT_TOKEN_INVALID_MESSAGE })
    }
    const budgetMs = timeoutMs + (options.extraMs ?? 0)
    const timeout = AbortSignal.timeout(budgetMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    if (!isGrammySignal(signal)) throw new Error('AbortSignal lacks addEventListener')
    const api = new Api(token, { apiRoot, timeoutSeconds: budgetMs / 1000 + GRAMMY_BACKSTOP_SECONDS })
    try {
      return await run(api, signal)
    } catch (error) {
      if (options.signal?.aborted && !timeout.aborted) {
        const reason: unknown = options.signal.reason
        throw reason
      }
      throw toTelegramError(error, { token, timedOut: timeout.aborted })
    }
  }

  return {
    getMe: (token) =>
      call(token, async (api, signal) => {
        const me = await api.getMe(signal)
        return {
          id: me.id,
          username: me.username,
          firstName: me.first_name,
          canJoinGroups: me.can_join_groups,
          canReadAllGroupMessages: me.can_read_all_group_messages,
          supportsInlineQueries: me.supports_inline_queries,
        }
      }),

    setWebhook: (token, { url, secretToken, allowedUpdates }) =>
      call(token, async (api, signal) => {
        await api.setWebhook(url, { secret_token: secretToken, allowed_updates: allowedUpdates }, signal)
      }),

    deleteWebhook: (token, options = {}) =>
      call(token, async (api, signal) => {
        await api.deleteWebhook({ drop_pending_updates: options.dropPendingUpdates }, signal)
      }),

    getWebhookInfo: (token) =>
      call(token, async (api, signal) => {
        const info = await api.getWebhookInfo(signal)
        return {
          url: info.url ?? '',
          pendingUpdateCount: info.pending_update_count,
          lastErrorMessage: info.last_error_message,
        }
      }),

    sendMessage: (token, { chatId, text, replyToMessageId }) =>
      call(token, async (api, signal) => {
        // reply_to_message_id is deprecated; without allow_sending_without_reply a deleted original fails the send.
        const reply_parameters =
          replyToMessageId === undefined
            ? undefined
            : { message_id: replyToMessageId, allow_sending_without_reply: true }
        const message = await api.sendMessage(chatId, text, { reply_parameters }, signal)
        return { messageId: message.message_id }
      }),

    sendFile: (token, { chatId, file }) =>
      call(
        token,
        async (api, signal) => {
          // grammY uploads it as multipart/form-data under this name (it refuses a name with a line break, which
          // it could not write in the part's header); Telegram reads the type from the bytes.
          const input = new InputFile(file.bytes, file.fileName.replace(/[\r\n]+/g, ' '))
          const options = { caption: file.caption }
          const message =
            file.kind === 'photo'
              ? await api.sendPhoto(chatId, input, options, signal)
              : await api.sendDocument(chatId, input, options, signal)
          return { messageId: message.message_id }
        },
        { extraMs: OUTBOUND_FILE_UPLOAD_EXTRA_MS },
      ),

    sendChatAction: (token, { chatId, action }) =>
      call(token, async (api, signal) => {
        await api.sendChatAction(chatId, action, {}, signal)
      }),

    getUpdates: (token, { offset, timeoutSeconds = 0, allowedUpdates, signal } = {}) =>
      call(
        token,
        async (api, combined): Promise<TelegramUpdate[]> =>
          api.getUpdates({ offset, timeout: timeoutSeconds, allowed_updates: allowedUpdates }, combined),
        { signal, extraMs: timeoutSeconds * 1000 },
      ),

    async downloadFile(token, { fileId, maxBytes, signal }) {
      const limit = Math.min(maxBytes, TELEGRAM_FILE_MAX_BYTES)
      const tooLarge = MEDIA_FAILURES.tooLarge(limit)
      const file = await call(token, (api, combined) => api.getFile(fileId, combined), { signal }).catch(
        (error: unknown) => {
          // "Bad Request: file is too big" (over 20 MB) or an id Telegram does not know (any more).
          if (error instanceof PlatformError && error.status === 400) {
            throw new MediaError(/too big/i.test(error.message) ? tooLarge : MEDIA_FAILURES.expired)
          }
          throw error
        },
      )
      if (!file.file_path) throw new MediaError(MEDIA_FAILURES.expired)
      if ((file.file_size ?? 0) > limit) throw new MediaError(tooLarge)
      // The path is Telegram's; the token in the URL is never in an error (downloadMedia names no URL).
      const path = file.file_path.split('/').map(encodeURIComponent).join('/')
      return downloadMedia(`${apiRoot}/file/bot${token}/${path}`, {
        platform: 'telegram',
        maxBytes: limit,
        timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
        signal,
        tooLarge,
        gone: MEDIA_FAILURES.expired,
      })
    },
  }
}

/** The shape grammY's HttpError wraps when a transformer or a custom fetch throws a response-like object. */
function statusOf(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number'
    ? value.status
    : undefined
}

function redact(text: string, token: string): string {
  return text.replaceAll(token, '[token]')
}

/** Maps what grammY threw to the spec's codes, Telegram's words where they help, and never the token. */
export function toTelegramError(
  error: unknown,
  context: { token: string; timedOut: boolean },
): PlatformError {
  const { token } = context
  if (context.timedOut) return new PlatformError('telegram', 'TIMEOUT_ERROR')

  if (error instanceof GrammyError) {
    const status = error.error_code
    const description = redact(error.description, token)
    // Telegram says 401 Unauthorized for an unknown token and 404 Not Found for a malformed one.
    if (status === 401 || status === 404) {
      return new PlatformError('telegram', 'AUTH_TOKEN_INVALID', {
        message: BOT_TOKEN_INVALID_MESSAGE,
        status,
      })
    }
    if (status === 429) {
      const retryAfter = error.parameters.retry_after
      return platformErrorFromStatus(
        'telegram',
        status,
        description,
        retryAfter === undefined ? undefined : retryAfter * 1000,
      )
    }
    // Telegram's 403 means "bot was blocked by the user" or "kicked from the group", not a missing token: keep
    // the spec's code for the status but say what happened.
    if (status === 403) {
      return new PlatformError('telegram', 'AUTH_TOKEN_MISSING', { message: description, status })
    }
    // Any 5xx is Telegram's trouble and worth another try, including those outside the spec's table.
    if (status > 500 && status !== 502 && status !== 503 && status !== 504) {
      return new PlatformError('telegram', 'SERVER_ERROR', { status })
    }
    return platformErrorFromStatus('telegram', status, description)
  }

  if (error instanceof HttpError) {
    const inner: unknown = error.error
    const status = statusOf(inner)
    if (status !== undefined) return platformErrorFromStatus('telegram', status)
    // node-fetch's FetchError: an answer that is not the Bot API's JSON (a proxy's HTML error page, say).
    if (inner instanceof Error && 'type' in inner && inner.type === 'invalid-json') {
      return new PlatformError('telegram', 'SERVICE_UNAVAILABLE')
    }
    return new PlatformError('telegram', 'NETWORK_ERROR')
  }

  const detail = error instanceof Error ? error.message : String(error)
  return new PlatformError('telegram', 'UNKNOWN_ERROR', { message: redact(detail, token) })
}
