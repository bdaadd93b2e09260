#!/usr/bin/env bash
# Installs what the test suite needs from Debian (Chromium for browser tests, redis-server for the
# shared rate-limit store, git for the Git follower, nginx for the reverse-proxy recipe, openssl for install.sh,
# kubectl for `kubectl kustomize deploy/kubernetes/`, promtool (Debian's prometheus) for the alert rules' unit test).
# Idempotent: does nothing when all are already present.
# Any kubectl will do: bookworm's kubernetes-client is 1.20 (kustomize v2), which deploy/kubernetes/ is written for too.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v git >/dev/null 2>&1 || need+=(git)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v kubectl >/dev/null 2>&1 || need+=(kubernetes-client)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-test-deps: need root or sudo to install: ${need[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup-test-deps: installing ${need[*]} from Debian" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian starts redis-server as a service on install; the tests run their own on ephemeral ports.
# Debian may start nginx (port 80) and prometheus (port 9090) as services too; the tests run their own nginx and need
# only promtool. Stop them, if they started.
for service in redis-server nginx prometheus prometheus-node-exporter; do
  $sudo service "$service" stop >/dev/null 2>&1 || true
done
