#!/usr/bin/env bash
# Playwright's webServer (see playwright.config.ts): the already-built app (`next build` ran first)
# as `npm start` serves it, one process per core, on a PostgreSQL database made for this run beside
# DATABASE_URL's (else on the local server) and dropped when the server stops. The browser tests all
# go through this one server, so it runs as deployed; the embedded database (PGlite, one process) is
# tested over HTTP by the http project (tests/http/embedded.test.ts and the PGlite app of
# tests/global-setup.ts). e2e/seed.ts makes the demo gallery, the browser tests' users and the
# sign-up links before the server starts.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${E2E_PORT:-3400}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="pf_e2e_${port}_$$"
# Sign-up links for e2e/accounts.spec.ts and e2e/a11y.spec.ts (path must match e2e/support.ts invitationLinks).
invites="${TMPDIR:-/tmp}/plot-files-e2e-invites-$port.txt"
# No seeding on start (e2e/seed.ts did it); URLs built from the request's own origin.
unset PUBLIC_URL
export NEXT_TELEMETRY_DISABLED=1 DEMO_SEED=false
# Sign-in throttling windows are fixed (aligned to the epoch): e2e/accounts.spec.ts's run of wrong
# passwords must not cross a window's end and count afresh, so the window is a year (one run's
# failures from this address stay far below SIGNIN_FAILURES_PER_ADDRESS).
export SIGNIN_WINDOW_SECONDS=31536000
# The streaming host's name (e2e/streams.spec.ts writes with this Host to the app's port).
export STREAM_HOST=stream.e2e.test

pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  psql "${DATABASE_URL%/*}/postgres" -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" || true
  rm -f "$invites"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

PUBLIC_URL="http://127.0.0.1:$port" node_modules/.bin/tsx --conditions=react-server e2e/seed.ts "$db" "$invites"

# As `npm start` serves (scripts/start.mjs: WEB_CONCURRENCY unset, one process per core).
DATABASE_URL="${DATABASE_URL%/*}/$db" NODE_ENV=production node --max-semi-space-size=32 scripts/start.mjs -p "$port" -H 127.0.0.1 &
pid=$!
wait "$pid"
