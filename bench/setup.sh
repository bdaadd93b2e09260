#!/usr/bin/env bash
# Installs the benchmark's load generator (wrk, Debian's package) if it is missing. Idempotent.
# Used by `npm run bench`; needs root (or sudo) only the first time.
set -euo pipefail
if command -v wrk >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends wrk
command -v wrk >/dev/null
