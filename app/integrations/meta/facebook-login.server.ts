import { z } from 'zod'
import { FACEBOOK_PERMISSIONS } from '~/lib/channels/facebook'
import { PlatformError } from '~/integrations/platform-errors'
import {
  GraphApiError,
  tokenSchema,
  type ExchangedToken,
  graphCall,
  type GraphFetch,
} from './graph-fetch.server'

export type FacebookTokenInfo = {
  isValid: boolean
  /** USER, PAGE, APP... as Graph names it. */
  type?: string
  appId?: string
  userId?: string
  /** For a page token, the page it acts as. */
  pageId?: string
  scopes: string[]
  /** Null when the token does not expire (long-lived page tokens) or Graph does not say. */
  expiresAt: Date | null
}

export type FacebookPage = {
  id: string
  name: string
  category: string
  tasks: string[]
  accessToken: string
}

/** Facebook Login's side of Graph: tokens, the person's pages and permissions. */
export type FacebookLoginClient = {
  /** Checks any token with the app token. An invalid token answers `isValid: false`, it does not throw. */
  debugToken(inputToken: string): Promise<FacebookTokenInfo>
  exchangeForLongLivedToken(userToken: string): Promise<ExchangedToken>
  /** The pages the person can act on, with their page tokens (long-lived when the user token is). */
  getPages(userToken: string): Promise<FacebookPage[]>
  getPage(pageToken: string, pageId: string): Promise<{ id: string; name: string; category?: string }>
  getGrantedPermissions(userToken: string): Promise<{ valid: boolean; missing: string[]; granted: string[] }>
}

const debugTokenSchema = z.object({
  data: z.object({
    is_valid: z.boolean(),
    type: z.string().optional(),
    app_id: z.string().optional(),
    user_id: z.string().optional(),
    profile_id: z.string().optional(),
    scopes: z.array(z.string()).default([]),
    expires_at: z.number().optional(),
  }),
})
const accountsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      category: z.string().default(''),
      tasks: z.array(z.string()).default([]),
      access_token: z.string(),
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string() }).optional(), next: z.string().optional() })
    .optional(),
})
const pageSchema = z.object({ id: z.string(), name: z.string(), category: z.string().optional() })
const permissionsSchema = z.object({
  data: z.array(z.object({ permission: z.string(), status: z.string() })),
})

// /me/accounts pages at 25 by default; 100 a request keeps a person with many pages to a few requests. Its
// `paging.next` is followed to the end; the cap only stops a Graph that would hand out `next` links forever.
const PAGES_PER_REQUEST = '100'
const MAX_PAGE_REQUESTS = 1000

const facebook = graphCall('facebook')

export function createFacebookLoginClient({
  request,
  nextLink,
  appToken,
  oauthQuery,
}: GraphFetch): FacebookLoginClient {
  return {
    async debugToken(inputToken) {
      const call = facebook({
        path: ['debug_token'],
        query: { input_token: inputToken },
        token: appToken,
        appToken: true,
        secrets: [inputToken],
      })
      const { data } = await request(debugTokenSchema, call).catch((error: unknown) => {
        // Graph answers an invalid *input* token with is_valid: false; a refused call points at the app token.
        if (error instanceof PlatformError && error.code === 'AUTH_TOKEN_INVALID') {
          const message = 'The Graph API refused the token check: verify META_APP_ID and META_APP_SECRET'
          throw new GraphApiError('facebook', 'AUTH_TOKEN_INVALID', { message, status: error.status })
        }
        throw error
      })
      return {
        isValid: data.is_valid,
        type: data.type,
        appId: data.app_id,
        userId: data.user_id,
        pageId: data.profile_id,
        scopes: data.scopes,
        expiresAt: data.expires_at ? new Date(data.expires_at * 1000) : null,
      }
    },

    async exchangeForLongLivedToken(userToken) {
      const query = { grant_type: 'fb_exchange_token', ...oauthQuery, fb_exchange_token: userToken }
      const answer = await request(
        tokenSchema,
        facebook({ path: ['oauth', 'access_token'], query, secrets: [userToken] }),
      )
      return { accessToken: answer.access_token, expiresIn: answer.expires_in }
    },

    async getPages(userToken) {
      const pages: FacebookPage[] = []
      const seen = new Set<string>()
      let next: URL | undefined
      for (let round = 0; round < MAX_PAGE_REQUESTS; round++) {
        const first = { fields: 'id,name,category,tasks,access_token', limit: PAGES_PER_REQUEST }
        const answer = await request(
          accountsSchema,
          next
            ? facebook({ path: ['me', 'accounts'], url: next, token: userToken })
            : facebook({ path: ['me', 'accounts'], query: first, token: userToken }),
        )
        for (const page of answer.data) {
          pages.push({
            id: page.id,
            name: page.name,
            category: page.category,
            tasks: page.tasks,
            accessToken: page.access_token,
          })
        }
        // Graph's own link to the next page (with its cursor and our fields and limit); none on the last page.
        next = nextLink(answer.paging?.next)
        if (!next || seen.has(next.href)) break
        seen.add(next.href)
      }
      return pages
    },

    async getPage(pageToken, pageId) {
      const query = { fields: 'id,name,category' }
      return request(pageSchema, facebook({ path: [pageId], query, token: pageToken }))
    },

    async getGrantedPermissions(userToken) {
      const answer = await request(
        permissionsSchema,
        facebook({ path: ['me', 'permissions'], token: userToken }),
      )
      const granted = answer.data
        .filter((entry) => entry.status === 'granted')
        .map((entry) => entry.permission)
      const missing = FACEBOOK_PERMISSIONS.filter((permission) => !granted.includes(permission))
      return { valid: missing.length === 0, missing, granted }
    },
  }
}
