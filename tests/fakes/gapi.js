/**
 * Offline stand-in for Google's https://apis.google.com/js/api.js, served by Playwright routes in e2e tests.
 *
 * It implements only the `gapi.load('gapi.iframes')` + `gapi.iframes` surface that Firebase Auth's popup flow uses
 * against the Auth emulator:
 * - parent side (the Firebase JS SDK, `_openIframe` / `BrowserPopupRedirectResolver`): `getContext().open(options,
 *   onOpened)` to create the hidden helper iframe, then `restyle`, `ping`, `register('authEvent')` and
 *   `send('webStorageSupport')` on it;
 * - child side (the emulator's /emulator/auth/iframe page): `getContext().getParentIframe()`, then
 *   `register('webStorageSupport')` and `send('authEvent')`.
 *
 * The real gapi RPC layer is replaced by a tiny window.postMessage protocol between the two windows. Every message
 * carries `fakeGapi: 1` and one of:
 *   { kind: 'ready' }                           child -> parent: the child's gapi is up (answers `ping`)
 *   { kind: 'call', id, name, payload }         either way: run the handler registered under `name`
 *   { kind: 'reply', id, results }              the handler results, as an array like gapi's (`[result]`)
 * Calls for a name nobody has registered yet are queued and delivered on `register`, because the emulator page
 * sends its first `authEvent` as soon as it loads, usually before the SDK has registered its handler.
 *
 * Like the real script it announces itself by calling `window[<onload>]` from its own `?onload=` query parameter
 * (how the SDK loads it) and `window.gapi_onload` (how the emulator page waits for it).
 */
;(function () {
  const MARK = 1
  const ownUrl = new URL(document.currentScript ? document.currentScript.src : location.href)
  const channels = new Map() // other window -> Channel
  let nextId = 0

  /** One end of a parent <-> iframe link: gapi's `Iframe` object. */
  class Channel {
    constructor(target, targetOrigin) {
      this.target = target
      this.targetOrigin = targetOrigin
      this.handlers = new Map()
      this.queued = new Map() // name -> calls that arrived before register()
      this.replies = new Map() // call id -> callback
      this.ready = false
      this.onReady = []
      channels.set(target, this)
    }
    post(message) {
      this.target.postMessage({ fakeGapi: MARK, ...message }, this.targetOrigin)
    }
    restyle() {
      return Promise.resolve(true)
    }
    ping(callback) {
      return new Promise((resolve) => {
        const done = () => {
          if (callback) callback([true])
          resolve([true])
        }
        if (this.ready) done()
        else this.onReady.push(done)
      })
    }
    register(name, handler, _filter) {
      this.handlers.set(name, handler)
      const waiting = this.queued.get(name) || []
      this.queued.delete(name)
      waiting.forEach((call) => this.answer(call))
    }
    send(name, payload, callback, _filter) {
      const id = `${Date.now()}-${nextId++}`
      if (callback) this.replies.set(id, callback)
      this.post({ kind: 'call', id, name, payload })
    }
    answer(call) {
      const handler = this.handlers.get(call.name)
      if (!handler) {
        const waiting = this.queued.get(call.name) || []
        this.queued.set(call.name, [...waiting, call])
        return
      }
      Promise.resolve()
        .then(() => handler(call.payload))
        .then(
          (result) => this.post({ kind: 'reply', id: call.id, results: [result] }),
          (error) => {
            console.warn('[fake gapi] handler failed', call.name, error)
            this.post({ kind: 'reply', id: call.id, results: [] })
          },
        )
    }
    receive(message) {
      if (message.kind === 'ready') {
        this.ready = true
        this.onReady.splice(0).forEach((done) => done())
      } else if (message.kind === 'call') {
        this.answer(message)
      } else if (message.kind === 'reply' && this.replies.has(message.id)) {
        const callback = this.replies.get(message.id)
        this.replies.delete(message.id)
        try {
          callback(message.results)
        } catch (error) {
          // The real gapi swallows callback errors too (the SDK's webStorageSupport callback always throws after it
          // has called back).
          console.debug('[fake gapi] callback threw', message.id, error)
        }
      }
    }
  }

  window.addEventListener('message', (event) => {
    const channel = channels.get(event.source)
    if (channel && event.data && event.data.fakeGapi === MARK) channel.receive(event.data)
  })

  const context = {
    /** Parent side: creates the iframe and calls `onOpened(iframe)`; resolves to what that returns. */
    open(options, onOpened) {
      const element = document.createElement('iframe')
      const { style = {}, ...attributes } = options.attributes || {}
      Object.assign(element.style, style)
      Object.entries(attributes).forEach(([name, value]) => element.setAttribute(name, String(value)))
      element.src = options.url
      ;(options.where || document.body).appendChild(element)
      const iframe = new Channel(element.contentWindow, new URL(options.url, location.href).origin)
      return Promise.resolve(onOpened ? onOpened(iframe) : iframe)
    },
    /** Child side: the link to the page that embedded us, announced to it at once. */
    getParentIframe() {
      const parent = channels.get(window.parent) || new Channel(window.parent, '*')
      parent.post({ kind: 'ready' })
      return parent
    },
  }

  const iframes = {
    CROSS_ORIGIN_IFRAMES_FILTER: () => true,
    SAME_ORIGIN_IFRAMES_FILTER: () => true,
    Iframe: Channel,
    getContext: () => context,
  }

  window.gapi = window.gapi || {}
  window.gapi.iframes = iframes
  /** Every module is already "loaded": call back on the next tick. */
  window.gapi.load = (_modules, options) => {
    const callback = typeof options === 'function' ? options : options && options.callback
    if (callback) setTimeout(callback, 0)
  }

  const onload = ownUrl.searchParams.get('onload')
  if (onload && typeof window[onload] === 'function') window[onload]()
  if (typeof window.gapi_onload === 'function') window.gapi_onload()
})()
