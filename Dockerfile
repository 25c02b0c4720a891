# The bot in a container: native modules are built in the first stage, the second runs as a
# non-root user with the SQLite database on a volume.
FROM node:20-bookworm-slim AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DATABASE_PATH=/data/bot.sqlite
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY migrations ./migrations
COPY src ./src
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# PORT: Slack's HTTP events; HEALTH_PORT (if set): /healthz and /metrics
EXPOSE 3000 9090
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/main.ts"]
