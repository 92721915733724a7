# ReplyPilot on Node 22 LTS: one Dockerfile, four images. See docs/docker.md, docs/decisions/006 and 012.
#
#   docker compose up              a working trial at http://localhost:3000 (compose.yaml: web, worker,
#                                  PostgreSQL and the Auth emulator, each built from a stage below)
#   docker build -t replypilot .   the app alone (the `runtime` stage, the last one)
#
# The web process (pages, /api/v1, webhooks):
#   docker run --rm -p 3000:3000 --env-file .env replypilot
# The worker (the reply pipeline, Telegram polling): the same image with another command, node itself as PID 1 so
# that `docker stop` (SIGTERM) reaches it and in-flight jobs finish; through `npm run worker` the signal stops at
# npm and the container exits 1 without draining:
#   docker run --rm --no-healthcheck --env-file .env replypilot node --import tsx server/worker.ts
# (--no-healthcheck: the image's health check asks the web process's /healthz, which the worker does not serve.)
#
# Production configuration (NODE_ENV=production is set below): the image refuses to start without
# SESSION_SECRET, ENCRYPTION_KEY, FIREBASE_PROJECT_ID, FIREBASE_API_KEY and an https PUBLIC_URL; set DATABASE_URL
# for PostgreSQL (migrations run at start under an advisory lock, so any number of containers may start together)
# and GOOGLE_APPLICATION_CREDENTIALS to a mounted service-account file. See .env.example.
#
# NODE_IMAGE is any Debian bookworm image with node 22 and npm on PATH and a user `node` (uid 1000); the default is
# the official one. The classic builder (DOCKER_BUILDKIT=0) builds this file as well as BuildKit does.

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

# ---- prod-deps: what the server loads at run time, nothing more ----
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# Left out: the Firebase web SDK (`firebase`), which only the browser bundle in build/client uses (the server
# build imports it lazily inside a click handler, never on the server); typescript, installed only as an optional
# peer of @remix-run/*, and @types/*, neither of which is loaded at run time (tsx strips types with esbuild).
# Kept: @napi-rs/canvas (33 MB), pdf.js's DOMMatrix on Node: without it every PDF upload fails.
RUN npm pkg delete dependencies.firebase \
  && npm install --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/@types node_modules/.package-lock.json

# ---- emulator: the Firebase Auth emulator, for the trial only (compose.yaml) ----
# Pure Node (firebase-tools' auth emulator needs no Java). It accepts unsigned tokens: never in production.
FROM ${NODE_IMAGE} AS emulator
WORKDIR /emulator
COPY package.json /tmp/replypilot-package.json
# The version the project develops and tests with, installed alone (not the app's whole dependency tree).
RUN npm install --no-audit --no-fund --no-save \
  "firebase-tools@$(node -p "require('/tmp/replypilot-package.json').devDependencies['firebase-tools']")" \
  && npm cache clean --force && rm /tmp/replypilot-package.json
# As firebase.json, but on every address of the container: the browser reaches it through a published port.
# The folder is the emulator user's: firebase-tools writes firebase-debug.log beside firebase.json.
RUN echo '{"emulators":{"auth":{"host":"0.0.0.0","port":9099},"ui":{"enabled":false},"singleProjectMode":true}}' \
  > firebase.json && chown node:node /emulator
USER node
EXPOSE 9099
CMD ["node", "node_modules/firebase-tools/lib/bin/firebase.js", "emulators:start", "--only", "auth", "--project", "demo-replypilot"]

# ---- postgres: PostgreSQL 15 from Debian, for the trial only (compose.yaml) ----
FROM ${NODE_IMAGE} AS postgres
# Without the cluster Debian's package makes on install: the start script makes its own in the volume.
RUN mkdir -p /etc/postgresql-common/createcluster.d \
  && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/replypilot.conf \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
# The first start makes the cluster (user and database `replypilot`, password from POSTGRES_PASSWORD) in PGDATA,
# a volume; later starts reuse it. Connections from the compose network need the password.
RUN mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && printf '%s\n' \
  '#!/bin/sh' \
  'set -e' \
  'if [ ! -s "$PGDATA/PG_VERSION" ]; then' \
  '  printf "%s" "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" > /tmp/pwfile' \
  '  initdb -U replypilot --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null' \
  '  rm /tmp/pwfile' \
  '  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"' \
  '  postgres -c listen_addresses= -c unix_socket_directories=/tmp >/dev/null 2>&1 & pid=$!' \
  '  until pg_isready -q -h /tmp; do sleep 0.2; done' \
  '  createdb -h /tmp -U replypilot replypilot' \
  '  kill -INT $pid; wait $pid || true' \
  'fi' \
  'exec postgres -c listen_addresses=* -c unix_socket_directories=/tmp' \
  > /usr/local/bin/replypilot-postgres && chmod 755 /usr/local/bin/replypilot-postgres
USER postgres
EXPOSE 5432
VOLUME /var/lib/postgresql/data
HEALTHCHECK --interval=5s --timeout=5s --start-period=30s --retries=5 \
  CMD ["pg_isready", "-q", "-h", "/tmp", "-U", "replypilot", "-d", "replypilot"]
# SIGINT is PostgreSQL's fast shutdown; SIGTERM (docker stop's) waits for clients to disconnect.
STOPSIGNAL SIGINT
CMD ["replypilot-postgres"]

# ---- runtime: the app (the default target, as the last stage) ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/build ./build
COPY server ./server
# The whole app/ folder (its *.test.ts files stay out through .dockerignore): server/index.ts imports
# app/utils/logger.server.ts, the worker entry imports services, and migrations are read from app/db/migrations
# relative to the working directory (MIGRATIONS_DIR overrides).
COPY app ./app
# tsx resolves the `~/` path alias from tsconfig.json when it runs app/ sources (the worker).
COPY tsconfig.json ./
# The embedded default (no DATABASE_URL, or no secrets with EMBEDDED_DEFAULTS=true) writes under ./data:
# writable by the runtime user; mount a named volume there to keep it (a bind-mounted folder must belong to
# uid 1000, or the start stops and says so).
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: it stops accepting, finishes requests and closes the database.
CMD ["node", "--import", "tsx", "server/index.ts"]
