import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The layers of app/ and what each may not import (docs/decisions/032). Tests are exempt: they wire layers
 * together on purpose. Parent-relative imports are refused everywhere in app/, so every import names its layer.
 */
const SERVER_ONLY = ['services', 'db', 'integrations', 'jobs', 'workers', 'http', 'runtime']
const LAYERS = [
  [
    'utils',
    ['lib', 'components', ...SERVER_ONLY],
    'utils/ is the leaf layer: it imports nothing of ours above it.',
  ],
  ['lib', ['components', ...SERVER_ONLY], 'lib/ reaches the browser: client-safe code only.'],
  ['components', SERVER_ONLY, 'Components reach the browser: client-safe code only.'],
  [
    'db',
    ['components', 'services', 'integrations', 'jobs', 'workers', 'http', 'runtime'],
    'db/ is below the domain.',
  ],
  [
    'integrations',
    ['components', 'db', 'services', 'jobs', 'workers', 'http', 'runtime'],
    'An integration knows its platform only: no tables, no domain.',
  ],
  [
    'services',
    ['components', 'jobs', 'workers', 'http', 'runtime'],
    'Services take plain arguments: no HTTP edge, no composition root, no UI.',
  ],
  ['jobs', ['components', 'workers', 'http', 'runtime'], 'Job handlers call services.'],
  ['workers', ['components', 'jobs', 'http', 'runtime'], 'Workers call services and integrations.'],
  ['http', ['components'], 'The HTTP edge renders nothing.'],
  ['runtime', ['components', 'http'], 'The composition root wires services, not the edge or the UI.'],
  ['routes', ['db', 'integrations', 'jobs', 'workers'], 'Routes are thin: parse, call a service, answer.'],
]
const NO_ROUTES = { group: ['~/routes/*'], message: 'Nothing imports a route module.' }
const NO_PARENT = {
  group: ['../*'],
  message: 'Import app code as ~/<layer>/…, so the layer rules can see it (docs/decisions/032).',
}
const layerRules = LAYERS.map(([layer, forbidden, message]) => ({
  files: [`app/${layer}/**/*.{ts,tsx}`],
  ignores: ['**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          NO_ROUTES,
          NO_PARENT,
          { group: forbidden.map((name) => `~/${name}/*`), message: `${message} (docs/decisions/032)` },
          ...(SERVER_ONLY.every((name) => forbidden.includes(name))
            ? [{ group: ['*.server', '*.server.*'], message: `${message} (docs/decisions/032)` }]
            : []),
        ],
      },
    ],
  },
}))

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'data/**',
      'node_modules/**',
      'tests/.tmp/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [NO_ROUTES] }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  {
    files: ['tests/e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message:
                "Import test from './helpers': it fails a test on any Content-Security-Policy violation.",
            },
          ],
        },
      ],
    },
  },
  ...layerRules,
)
