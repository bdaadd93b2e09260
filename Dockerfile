# syntax=docker/dockerfile:1
# Syllabus catalog: build the self-contained bundle (dist/), then run it on a slim Node with git for the Git follower.
# Build: docker build -t syllabus-catalog .   Run: docker run -p 8080:8080 syllabus-catalog   (deploy/README.md)

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are here (esbuild finds its binary without its postinstall).
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
# git: run by the Git follower (CONTENT_GIT_URL); ca-certificates: https remotes; tini: see ENTRYPOINT.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# package.json: its "type": "module" makes node load dist/server.js as ESM. No node_modules: the bundle needs none.
# No referral codes: mount your digests file and set REFERRALS_FILE (deploy/README.md); unset, checks answer 503.
COPY package.json ./
COPY content/ content/
COPY --from=build /src/dist/ dist/
# HOST: all interfaces (the service's default is loopback, for a laptop).
# XDG_CACHE_HOME: the Git follower's default cache becomes /tmp/cache/syllabus/content-git, writable on a read-only
# root filesystem (a tmpfs or emptyDir on /tmp). Not CONTENT_GIT_CACHE: the server rejects it without CONTENT_GIT_URL.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 ADMIN_PORT=9090 ADMIN_HOST=0.0.0.0 XDG_CACHE_HOME=/tmp/cache
# The process's own settings (src/server/process-environment.ts says why): glibc's mmap threshold held fixed.
ENV MALLOC_MMAP_THRESHOLD_=131072
USER node
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.ADMIN_PORT || 9090) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# The server handles SIGTERM/SIGINT itself (drains, exits), so node could be PID 1; tini is PID 1 anyway because the
# Git follower SIGKILLs a git that times out, orphaning its helpers (git-remote-https, index-pack): only an init reaps
# those. tini passes SIGTERM on to node. Docker's --init would do the same, but Kubernetes has no such flag.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server.js"]
