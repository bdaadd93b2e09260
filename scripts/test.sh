#!/usr/bin/env bash
# The whole test suite: Debian test dependencies, type check, OpenAPI lint, then vitest.
# Ends with one plain line `N passed, N failed, N skipped` read from vitest's JSON report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-deps.sh
npx tsc -p tsconfig.json --noEmit
npx tsx scripts/lint-openapi.ts
mkdir -p test-output
report=test-output/vitest.json
rm -f "$report"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
if [ -f "$report" ]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);' "$report"
fi
exit "$status"
