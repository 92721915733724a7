import '@remix-run/node'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The client's address as the HTTP entry saw it (TRUST_PROXY decides whether proxies are believed). */
    clientIp?: string
    requestId?: string
  }
}
