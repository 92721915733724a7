import { createFacebookLoginClient, type FacebookLoginClient } from './facebook-login.server'
import { createGraphFetch, type GraphConfig } from './graph-fetch.server'
import { createMessengerClient, type MessengerClient } from './messenger.server'
import { createWhatsAppClient, type WhatsAppClient } from './whatsapp.server'

/** Meta's Graph API for the app: Facebook Login, Messenger and the WhatsApp Cloud API over one fetch core. */
export type GraphClient = FacebookLoginClient & MessengerClient & WhatsAppClient

/**
 * One client for the app (one appsecret_proof cache): each product's calls live in their own module
 * (facebook-login, messenger, whatsapp) over the shared core (graph-fetch).
 */
export function createGraphClient(config: GraphConfig): GraphClient {
  const graph = createGraphFetch(config)
  return {
    ...createFacebookLoginClient(graph),
    ...createMessengerClient(graph),
    ...createWhatsAppClient(graph),
  }
}
