import { META_MESSAGE_ORIGINS } from '~/lib/channels/facebook'
import type { Config } from '~/runtime/config.server'

/** The `meta` configuration of a Meta app (id and secret) whose Graph API is the fake at `graphRoot`. */
export function testMetaConfig(graphRoot: string, app: { appId: string; appSecret: string }): Config['meta'] {
  return {
    configured: true,
    appId: app.appId,
    appSecret: app.appSecret,
    verifyToken: undefined,
    graphRoot,
    graphVersion: 'v23.0',
    sdkUrl: `${graphRoot}/sdk.js`,
    whatsappConfigId: undefined,
    signupMessageOrigins: [...META_MESSAGE_ORIGINS],
  }
}
