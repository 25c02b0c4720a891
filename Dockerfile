# The bot in a container: native modules are installed and the bot is built (src/ -> dist/) in the
# first stage; the second runs the built JavaScript as a non-root user, with the SQLite database on
# a volume. devDependencies are never installed.
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npm run -s build

FROM node:24-bookworm-slim
# The MALLOC_ pair: glibc returns freed memory of at least 128 KB to the system instead of raising
# its thresholds after the first large free; about 20 MB less RSS after a load (README, Footprint).
ENV NODE_ENV=production \
    DATABASE_PATH=/data/bot.sqlite \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.json ./
COPY migrations ./migrations
# src/ stays for what runs through tsx: TypeScript plugins (agent-bot/plugin) and the
# command-line tools (`docker compose exec bot npm run doctor`).
COPY src ./src
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# PORT: Slack's HTTP events; HEALTH_PORT (if set): /healthz and /metrics
EXPOSE 3000 9090
STOPSIGNAL SIGTERM
# As `npm start`: a young generation of at most 2 x 8 MB instead of V8's 2 x 16 MB, and an old
# generation that grows by 20% past what survived its last collection, not up to 4x (README, Footprint).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "dist/main.js"]
