/** The Meta app the e2e stack runs with (playwright.config.ts passes it to the app); tests sign webhooks with it. */
export const E2E_META_APP = {
  appId: '1234567890',
  appSecret: 'e2e-meta-app-secret',
  verifyToken: 'e2e-verify',
  /** Embedded Signup's configuration id (WHATSAPP_CONFIG_ID); the fake SDK takes any. */
  whatsappConfigId: 'e2e-embedded-signup-config',
}
