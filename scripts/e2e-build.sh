#!/usr/bin/env bash
# The browser tests' production build alone (scripts/e2e-server.sh serves it): `npm test` makes it
# beside the unit and integration tests, then the browser tests start with E2E_SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/e2e-env.sh
npm run --silent build
