/**
 * Offline stand-in for the Facebook JS SDK (https://connect.facebook.net/en_US/sdk.js), served by Playwright routes
 * (or FACEBOOK_SDK_URL) in browser tests. It defines `window.FB` with init, login, logout, getLoginStatus and api,
 * and calls `window.fbAsyncInit` once loaded, like the real script.
 *
 * Behaviour comes from `window.__FAKE_FB__`, read at each call, so a test may set it before the script loads or
 * change it later:
 *   { accessToken, userID, grantedScopes,          // the Facebook login answer (grantedScopes: array or "a,b")
 *     loginStatus: 'connected' | 'not_authorized' | 'unknown',   // anything but connected is a cancelled login
 *     signupCode, wabaId, phoneNumberId,           // the WhatsApp Embedded Signup answer
 *     signupEvent: 'FINISH' | 'FINISH_ONLY_WABA' | 'CANCEL',     // default FINISH
 *     graphRoot,                                   // e.g. the Graph fake's URL: FB.api forwards there
 *     pages,                                       // else FB.api answers /me/accounts from these
 *     logoutFails }                                // FB.logout throws (and the session stays)
 *
 * `FB.__calls` lists what the page called, in order: { method: 'init' | 'login' | 'logout' | 'getLoginStatus' |
 * 'api', options?, path? }, for tests to check the login's options and that a logout happened.
 *
 * Embedded Signup: FB.login with `config_id` and `response_type: 'code'` answers `{ authResponse: { code } }` and,
 * first, posts the session-info message Meta documents: a JSON string
 * `{ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id, waba_id }, version: 3 }`.
 * The real message comes from https://www.facebook.com (the popup); this fake posts it from the page's own origin,
 * so the app must check `event.origin` against a configurable list that tests extend with their own origin.
 */
;(function () {
  const DEFAULTS = {
    accessToken: 'EAAfake-user-token',
    userID: '10000000000001',
    grantedScopes: [],
    loginStatus: 'connected',
    signupCode: 'fake-signup-code',
    wabaId: '30000000000001',
    phoneNumberId: '20000000000001',
    signupEvent: 'FINISH',
    pages: [],
  }
  const config = () => Object.assign({}, DEFAULTS, window.__FAKE_FB__ || {})
  const LOGGED_OUT = { status: 'unknown', authResponse: null }
  // The real SDK never calls back synchronously.
  const reply = (callback, value) => setTimeout(() => callback && callback(value), 20)
  const graphError = (message, code) => ({ error: { message, type: 'OAuthException', code } })
  let initOptions = null
  let session = null // the authResponse of the last successful login
  const calls = []

  function embeddedSignup(callback) {
    const fake = config()
    const event = fake.loginStatus === 'connected' ? fake.signupEvent : 'CANCEL'
    const ids =
      event === 'FINISH'
        ? { phone_number_id: fake.phoneNumberId, waba_id: fake.wabaId }
        : { waba_id: fake.wabaId }
    const data = event === 'CANCEL' ? { current_step: 'PHONE_NUMBER_SETUP' } : ids
    // See the header: the real message's origin is https://www.facebook.com, this one the page's own.
    const message = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data, version: 3 })
    window.postMessage(message, window.location.origin)
    const authResponse = { code: fake.signupCode, userID: fake.userID, expiresIn: 0 }
    reply(callback, event === 'CANCEL' ? LOGGED_OUT : { status: 'connected', authResponse })
  }

  function login(callback, options) {
    const opts = options || {}
    calls.push({ method: 'login', options: JSON.parse(JSON.stringify(opts)) })
    if (!initOptions) throw new Error('FB.login() called before FB.init()')
    if (opts.config_id && opts.response_type === 'code') return embeddedSignup(callback)
    const fake = config()
    session = null
    if (fake.loginStatus !== 'connected')
      return reply(callback, { status: fake.loginStatus, authResponse: null })
    const scopes = [fake.grantedScopes, opts.scope].map((s) =>
      Array.isArray(s) ? s.join(',') : String(s || ''),
    )
    session = {
      accessToken: fake.accessToken,
      userID: fake.userID,
      grantedScopes: scopes[0] || scopes[1], // the SDK answers a comma-separated string
      expiresIn: 5400,
      data_access_expiration_time: Math.floor(Date.now() / 1000) + 90 * 24 * 3600,
      graphDomain: 'facebook',
    }
    reply(callback, { status: 'connected', authResponse: session })
  }

  /** Local answers when no graphRoot is set: /me, /me/accounts, /me/permissions. */
  function localAnswer(path) {
    const fake = config()
    const route = path.split('?')[0].replace(/^\/?(v\d+\.\d+\/)?/, '/')
    if (!session) return graphError('An active access token must be used', 2500)
    if (route === '/me') return { id: fake.userID, name: 'Fake User' }
    if (route === '/me/accounts') return { data: fake.pages, paging: { cursors: { after: 'QVFIUl' } } }
    if (route !== '/me/permissions') return graphError(`The fake SDK does not answer ${route}`, 100)
    const granted = session.grantedScopes.split(',').filter(Boolean)
    return { data: granted.map((permission) => ({ permission, status: 'granted' })) }
  }

  /** FB.api(path, [method], [params], callback), with the optional arguments in any of the SDK's combinations. */
  function api(path, ...rest) {
    const callback = typeof rest[rest.length - 1] === 'function' ? rest.pop() : function () {}
    const method = typeof rest[0] === 'string' ? rest.shift().toUpperCase() : 'GET'
    const params = Object.assign({}, rest[0] || {})
    calls.push({ method: 'api', path })
    const fake = config()
    if (!fake.graphRoot) return reply(callback, localAnswer(path))
    if (session && !params.access_token) params.access_token = session.accessToken
    const version = (initOptions && initOptions.version) || 'v23.0'
    const url = new URL(`${fake.graphRoot.replace(/\/+$/, '')}/${version}/${path.replace(/^\//, '')}`)
    const form = new URLSearchParams(params)
    if (method === 'GET') form.forEach((value, key) => url.searchParams.set(key, value))
    const init = method === 'GET' ? { method } : { method, body: form }
    fetch(url, init)
      .then((response) => response.json())
      .catch(() => graphError('Network error', 1))
      .then((answer) => callback(answer))
  }

  window.FB = {
    init(options) {
      initOptions = Object.assign({}, options)
      calls.push({ method: 'init', options: initOptions })
    },
    login,
    logout(callback) {
      calls.push({ method: 'logout' })
      if (config().logoutFails) throw new Error('FB.logout failed (fake)')
      session = null
      reply(callback, LOGGED_OUT)
    },
    getLoginStatus(callback) {
      calls.push({ method: 'getLoginStatus' })
      reply(callback, session ? { status: 'connected', authResponse: session } : LOGGED_OUT)
    },
    api,
    AppEvents: { logPageView() {} },
    XFBML: { parse() {} },
    /** For tests: what FB.init received (appId, version, xfbml, cookie). */
    get __initOptions() {
      return initOptions
    },
    /** For tests: the calls the page made, in order (see the header). */
    get __calls() {
      return calls.slice()
    },
  }

  if (typeof window.fbAsyncInit === 'function') setTimeout(window.fbAsyncInit, 0)
})()
