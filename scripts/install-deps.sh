#!/usr/bin/env bash
# Installs exactly the locked dependencies. No fallback: a lock file out of step with
# package.json fails here (and so in CI) instead of being quietly re-resolved.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
