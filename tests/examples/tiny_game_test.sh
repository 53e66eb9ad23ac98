#!/usr/bin/env bash
# The C++ example runs: tiny_server on a free loopback port, then tiny_client against it, which must
# get into the room (exit 0) and print what it sees ("me (x, z)..."). The port is the server's own
# pick (--port 0), read from its first line, so parallel tests never collide on one.
# Usage: tiny_game_test.sh TINY_SERVER TINY_CLIENT
set -euo pipefail
server_bin="$1"
client_bin="$2"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$server_bin" --port 0 --seconds 30 >"$work/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 200); do  # up to 10 s for the server to bind and say where
  port="$(sed -n 's/^tiny_server: listening on 127\.0\.0\.1:\([0-9][0-9]*\),.*/\1/p' "$work/server.log")"
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.05
done
if [[ -z "$port" ]]; then
  echo "tiny_game_test: tiny_server never said its port" >&2
  cat "$work/server.log" >&2
  exit 1
fi

rc=0
timeout 60 "$client_bin" --port "$port" --seconds 3 >"$work/client.log" 2>&1 || rc=$?
cat "$work/client.log"
if [[ $rc -ne 0 ]]; then
  echo "tiny_game_test: tiny_client exited $rc (1: never got into the room)" >&2
  cat "$work/server.log" >&2
  exit 1
fi
if ! grep -q '^me (' "$work/client.log"; then
  echo "tiny_game_test: tiny_client printed no 'me (' line" >&2
  exit 1
fi
echo "tiny_game_test: tiny_client played on port $port"
