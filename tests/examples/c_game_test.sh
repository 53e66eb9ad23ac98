#!/usr/bin/env bash
# The C example runs: c_game (a server and 3 clients in one process, written in C11 against the C
# API) for 2 s must exit 0 (every client played) and print what each client sees.
# Usage: c_game_test.sh C_GAME
set -euo pipefail
game_bin="$1"
clients=3
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

rc=0
timeout 60 "$game_bin" --seconds 2 --clients "$clients" >"$log" 2>&1 || rc=$?
cat "$log"
if [[ $rc -ne 0 ]]; then
  echo "c_game_test: c_game exited $rc" >&2
  exit 1
fi
for ((i = 0; i < clients; ++i)); do
  if ! grep -q "^client $i: me (" "$log"; then
    echo "c_game_test: client $i printed no 'me (' line" >&2
    exit 1
  fi
done
grep -q '^c_game: every client played$' "$log" || { echo "c_game_test: no closing line" >&2; exit 1; }
