#!/usr/bin/env bash
# Runs the app on the embedded defaults at http://localhost:3000 (listening on 127.0.0.1 only;
# HOST=0.0.0.0 opens it to the network): PGlite under .data/, e-mails to the dev outbox
# (/dev/outbox, answered to this machine only), offline places. Real services are picked up from
# the environment when set (see README.md, Configuration).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."

# Node 24 comes with the dependencies (the `node` devDependency): a checkout without it installs.
[ -x node_modules/.bin/node ] || bash scripts/install-deps.sh
source scripts/project-node.sh

mkdir -p .data
if [ -z "${AUTH_SECRET:-}" ]; then
  [ -s .data/auth-secret ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(48).toString("base64url"))' > .data/auth-secret)
  AUTH_SECRET="$(cat .data/auth-secret)"
  export AUTH_SECRET
fi
# Web Push keys (VAPID): made once and kept in the data folder, unless the environment names them.
if [ -z "${VAPID_PUBLIC_KEY:-}" ] || [ -z "${VAPID_PRIVATE_KEY:-}" ]; then
  [ -s .data/vapid.json ] || (umask 077 && node -e 'process.stdout.write(JSON.stringify(require("web-push").generateVAPIDKeys()))' > .data/vapid.json)
  VAPID_PUBLIC_KEY="$(node -p 'require("./.data/vapid.json").publicKey')"
  VAPID_PRIVATE_KEY="$(node -p 'require("./.data/vapid.json").privateKey')"
  export VAPID_PUBLIC_KEY VAPID_PRIVATE_KEY
fi
export VAPID_SUBJECT="${VAPID_SUBJECT:-mailto:push@localhost}"
export PORT="${PORT:-3000}"
export APP_URL="${APP_URL:-http://localhost:${PORT}}"
# The outbox is this setup's mail provider; it stays closed whenever a real provider is configured,
# and in the production deployment (APP_ENV=production), which refuses to start with it.
[ -n "${RESEND_API_KEY:-}" ] || [ "${APP_ENV:-}" = production ] || export ENABLE_DEV_OUTBOX="${ENABLE_DEV_OUTBOX:-true}"

# Short start-up output: one line per step, the details in .data/*.log (printed when a step fails).
step() {
  local log=".data/$1.log"
  shift
  "$@" > "$log" 2>&1 || { tail -n 40 "$log"; echo "Failed: see $log" >&2; exit 1; }
}
step migrate npm run --silent db:migrate
# The demo accounts sign in with a public password: the production deployment gets none (the seed
# itself refuses to run there, lib/env.ts seedRefusal).
if [ "${APP_ENV:-}" = production ] || [ "${VERCEL_ENV:-}" = production ]; then
  echo "Production deployment: no demo data seeded."
else
  step seed npm run --silent db:seed -- --brief
  cat .data/seed.log
fi
# Builds only when the sources changed since the last build: a hash of every file git tracks (or
# would, untracked ones included), with their contents, the lock file among them, and of APP_URL
# (next.config.ts reads it into the headers at build time) is kept beside the build. Outside a git
# checkout there is no such list, so every start builds.
source_hash() {
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "no-git-$(date +%s%N)"; return; }
  { git ls-files -z --cached --others --exclude-standard | xargs -0 sha256sum 2>/dev/null || true; echo "APP_URL=${APP_URL}"; } | sha256sum | cut -d' ' -f1
}
build_dir="${NEXT_DIST_DIR:-.next}"
hash_file="$build_dir/source-hash"
hash="$(source_hash)"
# The compiled server is the build's last step: with it, the build is whole.
if [ -f "$build_dir/server.mjs" ] && [ "$(cat "$hash_file" 2>/dev/null)" = "$hash" ]; then
  echo "Sources unchanged since the last build: starting it without rebuilding."
else
  echo "Building the app (a few minutes; the build's output goes to .data/build.log)..."
  step build npm run --silent build
  echo "$hash" > "$hash_file"
fi
# The app's server, compiled into the build (as `npm start` runs it).
exec node "$build_dir/server.mjs"
