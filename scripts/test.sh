#!/usr/bin/env bash
# The whole test suite: Debian test dependencies, type check, OpenAPI lint, then vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-deps.sh
npx tsc -p tsconfig.json --noEmit
npx tsx scripts/lint-openapi.ts
npx vitest run "$@"
