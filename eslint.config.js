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
const layerPatterns = (forbidden, message) => [
  NO_ROUTES,
  NO_PARENT,
  { group: forbidden.map((name) => `~/${name}/*`), message: `${message} (docs/decisions/032)` },
  ...(SERVER_ONLY.every((name) => forbidden.includes(name))
    ? [{ group: ['*.server', '*.server.*'], message: `${message} (docs/decisions/032)` }]
    : []),
]
const restricted = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })
const layerRules = LAYERS.map(([layer, forbidden, message]) => ({
  files: [`app/${layer}/**/*.{ts,tsx}`],
  ignores: ['**/*.test.{ts,tsx}'],
  rules: restricted(layerPatterns(forbidden, message)),
}))

/**
 * The order of the service domains (docs/decisions/052): each may import only those before it, so no two import
 * each other. Those above the message pipeline reach it through its port (services/messages/port.server).
 */
const DOMAINS = [
  'organizations',
  'auth',
  'knowledge',
  'agents',
  'messages',
  'channels',
  'conversations',
  'analytics',
  'health',
]
/** The pipeline's stages: inbound and reply both build on ingest, and neither knows the other. */
const STAGES = [
  ['ingest', ['inbound', 'reply']],
  ['inbound', ['reply']],
  ['reply', ['inbound']],
]
const SERVICES_LAYER = LAYERS.find(([layer]) => layer === 'services')
const servicePatterns = layerPatterns(SERVICES_LAYER[1], SERVICES_LAYER[2])
const domainRules = DOMAINS.map((domain, at) => {
  const above = DOMAINS.slice(at + 1)
  const patterns = [...servicePatterns]
  if (above.length > 0) {
    patterns.push({
      group: above.map((name) => `~/services/${name}/*`),
      message: `services/${domain} may import only the domains before it: ${DOMAINS.slice(0, at).join(', ') || 'none'} (docs/decisions/052)`,
    })
  }
  if (at > DOMAINS.indexOf('messages')) {
    patterns.push({
      group: STAGES.map(([stage]) => `~/services/messages/${stage}/*`),
      message: 'Above the pipeline, use its port: ~/services/messages/port.server (docs/decisions/052)',
    })
  }
  return {
    files: [`app/services/${domain}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: restricted(patterns),
  }
})
const stageRules = STAGES.map(([stage, forbidden]) => ({
  files: [`app/services/messages/${stage}/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: restricted([
    ...servicePatterns,
    {
      group: [
        ...DOMAINS.slice(DOMAINS.indexOf('messages') + 1).map((name) => `~/services/${name}/*`),
        '~/services/messages/port.server',
      ],
      message: `services/messages may import only the domains before it (docs/decisions/052)`,
    },
    {
      group: forbidden.map((name) => `~/services/messages/${name}/*`),
      message: `The pipeline runs one way: ${stage}/ does not import ${forbidden.join(' or ')}/ (docs/decisions/052)`,
    },
  ]),
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
  ...domainRules,
  ...stageRules,
)
