# The bot in a container. The first stage installs every package (esbuild builds src/ into dist/;
# better-sqlite3 compiles), builds, and prunes the devDependencies away; the second runs the built
# JavaScript as a non-root user with production packages only (no esbuild, tsx or TypeScript) and
# the SQLite database on a volume.
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# Then what only a compiler or an editor reads: better-sqlite3's C sources and objects (its addon stays),
# source maps, type declarations and the TypeScript sources some packages ship (221 MB -> 99 MB, docs/production.md).
RUN npm run -s build \
 && npm prune --omit=dev --no-audit --no-fund \
 && mv node_modules/better-sqlite3/build/Release/better_sqlite3.node /tmp/ \
 && rm -rf node_modules/better-sqlite3/build node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
 && mkdir -p node_modules/better-sqlite3/build/Release && mv /tmp/better_sqlite3.node node_modules/better-sqlite3/build/Release/ \
 && find node_modules dist \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete \
 && find node_modules -path '*/src/*' \( -name '*.ts' -o -name '*.mts' \) -type f -delete

FROM node:24-bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="agent-bot" \
      org.opencontainers.image.description="A tool-using AI agent bot for Discord, Slack and the terminal" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.documentation="docs/production.md"
# The MALLOC_ pair: glibc returns freed memory of at least 128 KB to the system instead of raising
# its thresholds after the first large free; about 20 MB less RSS after a load (docs/production.md, Footprint).
# HEALTH_PORT: /livez, /readyz, /healthz and /metrics, on the container's loopback unless HEALTH_HOST says otherwise.
ENV NODE_ENV=production \
    DATABASE_PATH=/data/bot.sqlite \
    HEALTH_PORT=9090 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY migrations ./migrations
COPY bin ./bin
# `docker compose exec bot agent-bot doctor` (and backup, migrate, usage, ...): the built tools.
RUN ln -s /app/bin/agent-bot.mjs /usr/local/bin/agent-bot \
 && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# PORT: Slack's HTTP events; HEALTH_PORT: the health routes and /metrics
EXPOSE 3000 9090
STOPSIGNAL SIGTERM
# /livez checks only that the process answers: a database or platform outage is no reason to restart it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HEALTH_PORT || 9090}/livez`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As `npm start`: a young generation of at most 2 x 4 MB instead of V8's 2 x 16 MB, an old
# generation that grows by 20% past what survived its last collection, not up to 4x, and one V8
# helper thread instead of four (each thread's malloc arena keeps what it once used)
# (docs/production.md, Footprint).
# --conditions=agent-bot-built: `agent-bot/plugin` is dist/plugin-api.js here (package.json "exports"),
# as for the operators' tools, which run built too (`agent-bot doctor`).
CMD ["node", "--conditions=agent-bot-built", "--max-semi-space-size=4", "--heap-growing-percent=20", "--v8-pool-size=1", "dist/main.js"]
