import type { MetaDeps } from './facebook.server'
import type { TelegramDeps } from './telegram.server'

/** Everything the channel services may need: where the app is reached, the token key, every platform client. */
export type PlatformDeps = TelegramDeps & MetaDeps
