#!/usr/bin/env bash
# Every check the project has, in order: typecheck, lint, unit + integration tests (against a real
# Secret Service), the build, and the Playwright e2e suite in Debian's Chromium. All steps run; the
# script fails when any of them failed.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf .tmp/results && mkdir -p .tmp/results
failed=()
step() {
  local name=$1; shift
  echo
  echo "==> $name"
  local t0=$SECONDS
  if "$@"; then echo "==> $name: ok ($((SECONDS - t0)) s)"; else echo "==> $name: FAILED ($((SECONDS - t0)) s)"; failed+=("$name"); fi
}
step typecheck npm run -s typecheck
step lint npm run -s lint
# Its output is kept too: a crashed test worker is reported only there, not in the JSON report.
unit() { npm run -s test:unit 2>&1 | tee .tmp/results/unit.log; return "${PIPESTATUS[0]}"; }
step "unit+integration" unit
step build npm run -s build
step e2e npm run -s test:e2e
echo
if [ ${#failed[@]} -gt 0 ]; then echo "test: failed steps: ${failed[*]}"; else echo "test: all steps passed"; fi
# The closing line: `test: N passed, N failed, N skipped` over every step.
npm exec --silent -- node scripts/test-summary.ts "${failed[@]}" 2>/dev/null || echo "test: could not read the test reports"
[ ${#failed[@]} -eq 0 ]
