#!/usr/bin/env bash
# Every check the project has: lint, types, unit, integration (real Postgres when it answers,
# else PGlite), browser tests (Debian's Chromium, installed here when missing) and the deployment
# rehearsal (two serverless instances behind a platform-like edge; skipped, saying so, without Postgres).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

# Node 24 comes with the dependencies (the `node` devDependency): a checkout without it installs.
if [ -n "${CI:-}" ] || [ ! -x node_modules/.bin/node ]; then
  bash scripts/install-deps.sh
fi
source scripts/project-node.sh
echo "== Node $(node -v)"

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Chromium from Debian's packages..."
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

# Each stage says how long it took: the whole run must stay well under CI's limit.
stage() {
  local name="$1" started=$SECONDS code=0
  shift
  echo "== $name"
  "$@" || code=$?
  echo "== $name took $((SECONDS - started)) s"
  return "$code"
}

# What the page showed at each failed browser try, flaky ones included (Playwright's error
# context, an accessibility snapshot): CI keeps no files, so its log is the only record.
show_failed_pages() {
  local file
  while IFS= read -r file; do
    echo "== what the page showed: $file"
    head -n 150 "$file"
  done < <(find "$1" -name error-context.md 2>/dev/null | sort)
}
browser_stage() {
  local name="$1" results="$2" code=0
  shift 2
  stage "$name" "$@" || code=$?
  show_failed_pages "$results"
  return "$code"
}

stage lint npm run --silent lint
stage types npm run --silent typecheck
# The types are checked: the builds below (browser tests, rehearsal) skip Next's own check (next.config.ts).
export TESTS_BUILD=1
# The browser tests' build runs beside the unit and integration tests (they wait on the database
# more than on the processor); the browser tests then serve it without building again.
mkdir -p .data
setsid bash scripts/e2e-build.sh >.data/e2e-build.log 2>&1 &
e2e_build=$!
# A stage that fails ends the run: the build (its own process group) stops with it.
trap 'kill -- "-$e2e_build" 2>/dev/null || true' EXIT
stage unit npx vitest run --project unit
stage integration npx vitest run --project integration
if ! wait "$e2e_build"; then
  cat .data/e2e-build.log
  echo "== the browser tests' build failed"
  exit 1
fi
E2E_SKIP_BUILD=1 browser_stage browser "test-results/port-${E2E_PORT:-3100}" npx playwright test
# A skipped rehearsal (no Postgres) leaves no results: none from an earlier run may be printed as its own.
rm -rf test-results/rehearsal
browser_stage rehearsal test-results/rehearsal npm run --silent rehearse
echo "== all passed in $SECONDS s"
