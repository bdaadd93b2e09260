#!/usr/bin/env bash
# The whole test suite: Debian test dependencies, type check, formatting, ESLint, unused code (knip), OpenAPI lint,
# then vitest (which also checks the layer rules, test/architecture.test.ts).
# Ends with one plain line `N passed, N failed, N skipped` read from vitest's JSON report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-deps.sh
npx tsc -p tsconfig.json --noEmit
npx prettier --check --log-level warn .
npx eslint . --max-warnings=0
npx knip --no-progress
npx tsx scripts/lint-openapi.ts
mkdir -p test-output
report=test-output/vitest.json
rm -f "$report"
status=0
npx vitest run --coverage --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
if [ -f "$report" ]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);' "$report"
fi
exit "$status"
