#!/bin/bash
# Logins against play (issue 30): logins per second with the server's Argon2id parameters (200
# logins started at once, each retried after Retry-After on 503 `busy`), then paced play's
# move→ack with and without those 200 logins, alternated RUNS times on a fresh server each.
# The load generators run at the lowest priority (nice 19), as the hashing threads do, so play
# (the server's runtime at nice 0) gets the cores first; the load average is printed beside
# every figure.
#
#   usage: logins.sh DIR   (DIR holds boardcast-server, or the e2e build's
#                           boardcast-server-e2e, and boardcast-load)
#
# CONTROL=1 adds a third arm to every run: paced play beside a process that is not the server
# at all, an idle-priority (`chrt --idle`) memory-hard hash loop (Python's scrypt, 16 MiB, one
# thread, like the server's one hashing thread) for as long as the 200 logins took. What it
# costs play is what any background hashing costs on this machine, whoever does it.
#
# Takes about RUNS × 1 minute (1.5 with CONTROL=1). Leaves nothing running and nothing on disk.
set -u
R=${1:?usage: logins.sh DIR-WITH-BINARIES}
R=$(cd "$R" && pwd)
SERVER_BIN=$R/boardcast-server
[ -x "$SERVER_BIN" ] || SERVER_BIN=$R/boardcast-server-e2e
for bin in "$SERVER_BIN" "$R/boardcast-load"; do
  [ -x "$bin" ] || { echo "no $bin" >&2; exit 1; }
done
COUNT=${COUNT:-20}        # paced matches
RATE=${RATE:-100}         # their moves per second in all
DURATION=${DURATION:-20s} # the measured window of play
LOGINS=${LOGINS:-200}
LOGIN_AT=${LOGIN_AT:-4}   # seconds after play starts (set-up of 20 matches takes < 1 s)
RUNS=${RUNS:-2}
WORK=$(mktemp -d /tmp/logins-measure.XXXXXX)
SERVER=
PLAY=
HOG=
CONTROL=${CONTROL:-0}
PASSWORD='Tulpen-in-Dokkum-1921'

cleanup() {
  if [ -n "$HOG" ] && kill -0 "$HOG" 2>/dev/null; then kill "$HOG"; wait "$HOG" 2>/dev/null; fi
  if [ -n "$PLAY" ] && kill -0 "$PLAY" 2>/dev/null; then kill "$PLAY"; wait "$PLAY" 2>/dev/null; fi
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
    kill "$SERVER"; wait "$SERVER" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/common.sh"
FLAGS=${BENCH_SERVER_FLAGS/--channels 1/--channels 0}

# start_server: a fresh server on a fresh SQLite database with member `bench`; sets SERVER, ADDR.
start_server() {
  local port
  rm -f "$WORK"/bench.db*
  echo "$PASSWORD" | "$SERVER_BIN" --db "$WORK/bench.db" admin create-user bench \
    || { echo "cannot create the member" >&2; exit 1; }
  port=$(free_port)
  ADDR=127.0.0.1:$port
  # shellcheck disable=SC2086
  "$SERVER_BIN" --listen "$ADDR" --db "$WORK/bench.db" $FLAGS >"$WORK/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do
    if curl -sf "http://$ADDR/metrics" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$SERVER" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1
}

stop_server() { kill "$SERVER"; wait "$SERVER" 2>/dev/null; SERVER=; }

logins() {
  nice -n 19 "$R/boardcast-load" logins --addr "$ADDR" --name bench --password "$PASSWORD" \
    --count "$LOGINS" --server-pid "$SERVER" 2>/dev/null | grep -v -E '^(==|command|machine)'
}

play() {
  nice -n 19 "$R/boardcast-load" matches --addr "$ADDR" --count "$COUNT" --rate "$RATE" \
    --duration "$DURATION" --server-pid "$SERVER" --fsync-count 0 2>/dev/null \
    | grep -E '^(date|loadavg|move->ack|durable|send after|storage|cpu|threads)'
}

echo "=== $LOGINS logins at once, nothing else, $(date -u +%H:%M:%S) UTC, $(load)"
start_server
SECONDS=0
logins
LOGIN_SECONDS=$SECONDS
stop_server

for run in $(seq "$RUNS"); do
  echo "=== run $run of $RUNS: paced play without logins, $(date -u +%H:%M:%S) UTC, $(load)"
  start_server
  play
  stop_server
  echo "after: $(load)"

  echo "=== run $run of $RUNS: paced play with $LOGINS logins at ${LOGIN_AT}s, $(date -u +%H:%M:%S) UTC, $(load)"
  start_server
  play >"$WORK/play.out" &
  PLAY=$!
  sleep "$LOGIN_AT"
  logins
  wait "$PLAY"; PLAY=
  cat "$WORK/play.out"
  stop_server
  echo "after: $(load)"

  [ "$CONTROL" = 1 ] || continue
  echo "=== run $run of $RUNS: paced play beside an idle-priority scrypt loop outside the server for ${LOGIN_SECONDS}s at ${LOGIN_AT}s, $(date -u +%H:%M:%S) UTC, $(load)"
  start_server
  play >"$WORK/play.out" &
  PLAY=$!
  sleep "$LOGIN_AT"
  timeout "$LOGIN_SECONDS" chrt --idle 0 python3 -c '
import hashlib, os
while True:
    hashlib.scrypt(b"password", salt=os.urandom(16), n=16384, r=8, p=1, maxmem=64 << 20)' &
  HOG=$!
  wait "$HOG"; HOG=
  wait "$PLAY"; PLAY=
  cat "$WORK/play.out"
  stop_server
  echo "after: $(load)"
done
