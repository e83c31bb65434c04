# Sluice's container image. The first stage builds the server and the console with every dependency;
# the second holds only what runs them: production dependencies and the built files, run by an
# unprivileged user, with the data (SQLite file and generated session secret) in the /data volume.
# Debian rather than Alpine: better-sqlite3 ships prebuilt binaries for glibc, so no toolchain is needed.

FROM node:22-bookworm-slim AS build
WORKDIR /src
# Manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/mock-upstream/package.json packages/mock-upstream/
COPY packages/web/package.json packages/web/
# No install scripts: the build tools need none (and the root's own would build before the sources are in).
RUN npm ci --ignore-scripts
COPY tsconfig.base.json ./
COPY packages/ packages/
RUN npm run build

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/mock-upstream/package.json packages/mock-upstream/
COPY packages/web/package.json packages/web/
# The server's production dependencies only: no build tools, and none of the console's (it is served
# as built files). better-sqlite3 is the one of them with an install script (it fetches its binary).
RUN npm ci --omit=dev --workspace=@sluice/server --ignore-scripts \
    && npm rebuild better-sqlite3 \
    && npm cache clean --force
COPY --from=build /src/packages/shared/dist packages/shared/dist
COPY --from=build /src/packages/server/dist packages/server/dist
COPY --from=build /src/packages/web/dist packages/web/dist
COPY --from=build /src/packages/web/dist-first-paint packages/web/dist-first-paint
# The application stays root's and read-only to the server; it writes only to /data.
RUN mkdir /data && chown node:node /data
ENV SQLITE_PATH=/data/sluice.db \
    PORT=3000
VOLUME /data
EXPOSE 3000
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1, so SIGTERM from `docker stop` reaches the server, which drains calls in flight
# for up to SHUTDOWN_TIMEOUT seconds: give the container longer than that to stop (docs/deploy.md).
STOPSIGNAL SIGTERM
# The young generation capped at 8 MB a half, as `npm start` runs it (see packages/server/src/main.ts).
CMD ["node", "--max-semi-space-size=8", "packages/server/dist/sluice.js"]
