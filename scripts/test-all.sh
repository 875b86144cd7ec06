#!/usr/bin/env bash
# Every check the project has: lint, types, unit, integration (real Postgres when it answers,
# else PGlite) and browser tests (Debian's Chromium, installed here when missing).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

if [ -n "${CI:-}" ] || [ ! -d node_modules ]; then
  bash scripts/install-deps.sh
fi

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Chromium from Debian's packages..."
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

echo "== lint" && npm run --silent lint
echo "== types" && npm run --silent typecheck
echo "== unit" && npx vitest run --project unit
echo "== integration" && npx vitest run --project integration
echo "== browser" && npx playwright test
echo "== rehearsal" && npm run --silent rehearse
