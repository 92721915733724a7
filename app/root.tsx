import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from '@mantine/core'
import { Notifications } from '@mantine/notifications'
import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError } from '@remix-run/react'
import type { ReactNode } from 'react'
import { ErrorFallback } from '~/components/error-fallback'
import { useNonce, useStyleNonce } from './lib/shared/content-security-policy'
import { PRODUCT_NAME, TOAST_AUTO_CLOSE_MS, TOAST_LIMIT, TOAST_WIDTH_PX } from './lib/shared/constants'
import { cssVariablesResolver, theme } from '~/theme'

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
]

export const meta: MetaFunction = () => [
  { title: PRODUCT_NAME },
  {
    name: 'description',
    content: `${PRODUCT_NAME} answers your customers on Telegram, Messenger and WhatsApp with AI agents.`,
  },
]

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const styleNonce = useStyleNonce()
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3b5bdb" />
        <ColorSchemeScript defaultColorScheme="light" nonce={nonce} />
        <Meta />
        <Links />
      </head>
      <body>
        <MantineProvider
          theme={theme}
          cssVariablesResolver={cssVariablesResolver}
          defaultColorScheme="light"
          getStyleNonce={styleNonce}
        >
          <Notifications
            position="bottom-right"
            limit={TOAST_LIMIT}
            autoClose={TOAST_AUTO_CLOSE_MS}
            containerWidth={TOAST_WIDTH_PX}
          />
          {children}
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorFallback error={error} />
}
