# The standalone mock server (`scenario-harness serve`) as a container image.
# Not built in CI; see docs/standalone-server.md ("Docker").
#
#   docker build -t scenario-harness .
#   docker run --rm -p 9400:9400 -e HARNESS_TOKEN -v "$PWD/scenarios:/scenarios:ro" scenario-harness \
#     serve --host 0.0.0.0 /scenarios/payments.yaml
#
# Listening on 0.0.0.0 needs a token (HARNESS_TOKEN, at least 16 characters; the tests send it
# as "Authorization: Bearer <token>"), or --insecure-no-token on a network only the tests reach.

# --- build: compile TypeScript and generate schema.json --------------------------------
FROM node:22-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-schema.mjs ./scripts/
COPY src ./src
RUN npm run build

# --- runtime: production dependencies, the build, and a Redis client for --redis ---------
FROM node:22-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# `redis` is not a dependency of the package (apps bring their own client); the image brings
# one so that `serve --redis <url>` works out of the box.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund redis@5 \
 && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY --from=build /src/schema.json ./schema.json
COPY bin ./bin
USER node
EXPOSE 9400
# The health endpoint of the main port; change the port here too if you change --port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9400/__harness__/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/scenario-harness.js"]
# Inside a container the server must listen on every interface to be reachable (--host 0.0.0.0),
# so it starts only with HARNESS_TOKEN set (docker run -e HARNESS_TOKEN=…).
CMD ["serve", "--host", "0.0.0.0", "--port", "9400", "/scenarios/scenarios.yaml"]
