# The production image: the service compiled to JavaScript (`npm run build`) and run by node with
# production dependencies only, as the unprivileged `node` user. test/build/compiledServer.e2e.test.ts
# runs the same install and the same command against a real PostgreSQL. It needs DATABASE_URL (no
# embedded PostgreSQL in the image) and, in production, DATA_ENCRYPTION_KEY and AUDIT_SIGNING_KEY.

# Build: every dependency (the compiler is a dev one), then the compile.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

# Runtime: production dependencies (no optional ones: the embedded PostgreSQL's binaries; no install
# scripts), the compiled dist/ and the console's built files (served at /console/), nothing else.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
# DATA_DIR (./data): a sandbox without DATA_ENCRYPTION_KEY / AUDIT_SIGNING_KEY keeps its keys there; mount a volume on it.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV PORT=3000 HOST=0.0.0.0
EXPOSE 3000
# node:20-slim has no curl; Node 20's fetch does the check. 200 while the database answers (GET /health).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
