# syntax=docker/dockerfile:1
# ReplyPilot: the web process (pages, /api/v1, webhooks) on Node 22 LTS. See docs/decisions/006 and 012.
#
#   docker build -t replypilot .
#   docker run --rm -p 3000:3000 --env-file .env replypilot
#
# Production configuration (NODE_ENV=production is set below): the image refuses to start without
# SESSION_SECRET, ENCRYPTION_KEY, FIREBASE_PROJECT_ID, FIREBASE_API_KEY and an https PUBLIC_URL; set DATABASE_URL for PostgreSQL
# (migrations run at start under an advisory lock, so any number of containers may start together) and
# GOOGLE_APPLICATION_CREDENTIALS to a mounted service-account file. See .env.example.
#
# The worker process (the reply pipeline) is the same image with another command:
#   docker run --rm --env-file .env replypilot npm run worker
# or, to let the worker receive SIGTERM directly rather than through npm:
#   docker run --rm --env-file .env replypilot node --import tsx server/worker.ts
# Note: the worker entry (server/worker.ts, which `npm run worker` starts) arrives with the reply pipeline;
# until then only the web process runs.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- deps: every dependency, dev ones included, for the build ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: lockfiles made on one platform can lack another's optional binaries.
# re2 (an optional dependency of firebase-tools) may fail to build here; npm skips it.
RUN npm install --no-audit --no-fund

# ---- build: the Remix/Vite build into build/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npx remix vite:build

# ---- runtime: production dependencies and what the server reads at run time ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY package.json package-lock.json ./
# tsx is a production dependency: the server entry is TypeScript run by `node --import tsx`.
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY server ./server
# The whole app/ folder: server/index.ts imports app/utils/logger.server.ts, the worker entry imports services,
# and migrations are read from app/db/migrations relative to the working directory (MIGRATIONS_DIR overrides).
COPY app ./app
# tsx resolves the `~/` path alias from tsconfig.json when it runs app/ sources (the worker).
COPY tsconfig.json ./
# The embedded default (no DATABASE_URL, or no secrets with EMBEDDED_DEFAULTS=true) writes under ./data:
# writable by the runtime user; mount a volume there to keep it.
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: it stops accepting, finishes requests and closes the database.
CMD ["node", "--import", "tsx", "server/index.ts"]
