# The browser tests' build and server settings, sourced by scripts/e2e-build.sh and scripts/e2e-server.sh
# so the build they share is made and served under one configuration.
export NEXT_TELEMETRY_DISABLED=1
PORT="${E2E_PORT:-3100}"
# Several runs may share a machine: each port gets its own build folder and databases.
export NEXT_DIST_DIR="${E2E_DIST_DIR:-.next-e2e}"
export NODE_ENV=production
export APP_URL="http://localhost:${PORT}"
export ENABLE_DEV_OUTBOX=true
unset RESEND_API_KEY
# Web Push on, with a key pair made for this run (the browser's push service is not reached: the
# tests deliver pushes through DevTools).
VAPID_PUBLIC_KEY="$(node -e 'const k = require("web-push").generateVAPIDKeys(); process.stdout.write(k.publicKey + " " + k.privateKey)')"
VAPID_PRIVATE_KEY="${VAPID_PUBLIC_KEY#* }"
VAPID_PUBLIC_KEY="${VAPID_PUBLIC_KEY%% *}"
export VAPID_PUBLIC_KEY VAPID_PRIVATE_KEY VAPID_SUBJECT="mailto:push@e2e.example.com"
