import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vitest/config'
import tsconfigPaths from 'vite-tsconfig-paths'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  plugins: [
    // Vitest runs plain modules; the Remix plugin would try to build the whole app.
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/*.css'],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    tsconfigPaths(),
  ],
  server: { port: 3000 },
  build: { target: 'es2022' },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      // Drills run app processes side by side, which the embedded PGlite cannot serve: only on PostgreSQL (npm
      // test's second pass), and left out of the first pass rather than skipped.
      ...(process.env.DATABASE_URL ? ['tests/drills/**/*.test.ts'] : []),
    ],
    setupFiles: ['tests/setup/vitest.setup.ts'],
    globalSetup: ['tests/setup/auth-emulator.global.ts'],
    testTimeout: 20_000,
    // A database and pg-boss start in beforeAll: generous for a machine busy with other work.
    hookTimeout: 90_000,
    pool: 'forks',
  },
})
