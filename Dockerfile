# The service's image: the web server (`npm start`), the callback worker, the admin CLI and db:deploy all run
# from it (compose.yaml; docs/operators/containers.md). Build: `docker build -t rx-transfer .`
# Nothing secret is baked in: keys, the database URL and the store's identity come from the environment.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The postinstall step generates the Prisma client, which needs the schema and prisma.config.ts (and the
# WASM schema engine shim under prisma/engine, so nothing is fetched from Prisma's binary host).
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# After the prune, what npm keeps as optional peers of production packages but no process of the image loads:
# TypeScript (tsx does not use it; the Prisma CLI only asks it its version) and Playwright (Next's). Prisma
# Studio and `prisma dev` stay: the Prisma CLI requires them when it loads, even for `migrate deploy`.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache \
    node_modules/typescript node_modules/@playwright node_modules/playwright node_modules/playwright-core

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/var/lib/rx-transfer
# The code stays root's and read-only to the service; it writes only DATA_DIR (and tsx's cache in /tmp).
COPY --from=build /app /app
RUN mkdir -p "$DATA_DIR" && chown node:node "$DATA_DIR" && chmod 700 "$DATA_DIR"
USER node
EXPOSE 3000
# The drain on SIGTERM (SHUTDOWN_DRAIN_SECONDS: /readyz answers 503, then the server closes) needs the
# signal to reach node itself, hence node as the command rather than `npm start`; the same flags as it.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "scripts/serve.ts", "start"]
