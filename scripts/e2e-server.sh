#!/usr/bin/env bash
# Serves a production build for the browser tests on a database of its own:
# a fresh Postgres database when the machine's Postgres answers, else a fresh PGlite folder.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/e2e-env.sh
ADMIN_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export AUTH_SECRET="e2e-$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')"

if node scripts/pg-admin.mjs "$ADMIN_URL" ping 2>/dev/null; then
  name="e2e_${PORT}_$(date +%s)_$$"
  node scripts/pg-admin.mjs "$ADMIN_URL" drop-prefix "e2e_${PORT}_"
  node scripts/pg-admin.mjs "$ADMIN_URL" create "$name"
  export DATABASE_URL="${ADMIN_URL%/*}/${name}"
else
  export PGLITE_DIR=".data/e2e-pglite-${PORT}"
  rm -rf "$PGLITE_DIR"
fi

# The compiled server is the build's last step: with it, the build is whole.
if [ "${E2E_SKIP_BUILD:-}" != "1" ] || [ ! -f "$NEXT_DIST_DIR/server.mjs" ]; then
  bash scripts/e2e-build.sh >&2
fi
npm run --silent db:migrate >&2
npm run --silent db:seed >/dev/null
# The app's own server (server.ts), as `npm start` runs it: what the tests drive is what ships.
# Its supervisor (scripts/e2e-servers.ts) also runs a test its own server when asked (one the test
# may restart under open live streams without stopping everyone else's).
# The tests play the trusted proxy: their API calls name a client address in X-Forwarded-For (so
# per-address limits do not pile up on one loopback address), the browser's calls are loopback.
export PORT TRUSTED_PROXY_HOPS=1
exec node --import tsx scripts/e2e-servers.ts
