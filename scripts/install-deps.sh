#!/usr/bin/env bash
# Installs the locked dependencies. `npm ci` first; where the registry serves no builds of
# Next's optional native packages for other platforms, npm ci calls the lock file out of sync
# (it lists them without versions), and `npm install` installs the same locked versions instead.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
  grep -m1 "can only install packages when" "$log" >/dev/null || { cat "$log"; exit 1; }
  echo "npm ci: the lock file names other-platform packages this registry does not serve; using npm install."
  npm install --no-audit --no-fund
fi
rm -f "$log"
