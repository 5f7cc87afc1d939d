#!/usr/bin/env bash
# Playwright's webServer (see playwright.config.ts): the already-built app (`next build` ran first)
# on a throwaway embedded database. PGlite is single-process, so the demo gallery (ada, grace, linus,
# mae) and the two browser-test users are created before the server starts. The database directory
# is removed when the server stops.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${E2E_PORT:-3400}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/plot-files-e2e.XXXXXX")"
# Sign-up links for e2e/accounts.spec.ts and e2e/a11y.spec.ts (path must match e2e/support.ts invitationLinks).
invites="${TMPDIR:-/tmp}/plot-files-e2e-invites-$port.txt"
# Always the embedded database, even where CI points DATABASE_URL at PostgreSQL; no seeding on start
# (done here, explicitly); URLs built from the request's own origin.
unset DATABASE_URL PUBLIC_URL
export PGLITE_DIR="$dir/pglite" NEXT_TELEMETRY_DISABLED=1 DEMO_SEED=false
# Sign-in throttling windows are fixed (aligned to the epoch): e2e/accounts.spec.ts's run of wrong
# passwords must not cross a window's end and count afresh, so the window is a year (one run's
# failures from this address stay far below SIGNIN_FAILURES_PER_ADDRESS).
export SIGNIN_WINDOW_SECONDS=31536000

pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir" "$invites"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# Keys must match e2e/support.ts (E2E_USER / OTHER_USER).
node_modules/.bin/tsx --conditions=react-server scripts/db-seed.ts
node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2e --api-key "e2e-browser-tests-key-0123456789"
node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2eother --api-key "e2e-other-user-key-9876543210"
# The person who declines and blocks shares in e2e/collaborators.spec.ts (nobody else shares with them).
node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2eshares --api-key "e2e-shares-key-0123456789"
# Users whose trash e2e/workspace-many.spec.ts empties (one a mode: nothing else trashes their files).
node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2etrashjs --api-key "e2e-trash-js-key-0123456789"
node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2etrashnojs --api-key "e2e-trash-nojs-key-0123456789"
# A password account whose sign-in e2e/accounts.spec.ts throttles (nothing else signs in as it).
echo "e2e-throttled-password" | node_modules/.bin/tsx --conditions=react-server scripts/user-create.ts e2ethrottle --email throttle@e2e.example --password-stdin
PUBLIC_URL="http://127.0.0.1:$port" node_modules/.bin/tsx --conditions=react-server scripts/user-invite.ts js@invited.example nojs@invited.example a11y@invited.example | grep '/signup?invite=' > "$invites"

# As `npm start` serves (scripts/start.mjs; one process on the embedded database).
NODE_ENV=production WEB_CONCURRENCY=1 node --max-semi-space-size=32 scripts/start.mjs -p "$port" -H 127.0.0.1 &
pid=$!
wait "$pid"
