#!/bin/bash
# Reveal fan-out of `tv1` (50 ms ply interval, postcard watchers) against the bare baseline
# `boardcast-load fanout-server`, measured in the same run: deliveries/s, reveal due -> last
# watcher p50/p99 and server CPU per delivery for both, and their ratios (issue 17). First
# 10,000 watchers, then 2,000. Each size runs on a fresh server with a fresh database in a
# temporary directory and a fresh baseline, on free loopback ports.
#
#   usage: fanout.sh DIR      (DIR holds boardcast-server and boardcast-load, release builds)
#
# Takes about 4 minutes. Leaves nothing running and nothing on disk.
# COUNTS="10000 2000" and DURATION=20s may be overridden. SERVER_CPUS and LOAD_CPUS (taskset
# lists, e.g. SERVER_CPUS=0 LOAD_CPUS=1) pin the server and the baseline to the first, the
# load generator to the second, so they no longer share cores (issue 35: "the load generator
# elsewhere"); without them all share every core.
set -u
R=${1:?usage: fanout.sh DIR-WITH-RELEASE-BINARIES}
R=$(cd "$R" && pwd)
for bin in boardcast-server boardcast-load; do
  [ -x "$R/$bin" ] || { echo "no $R/$bin" >&2; exit 1; }
done
COUNTS=${COUNTS:-10000 2000}
DURATION=${DURATION:-20s}
WORK=$(mktemp -d /tmp/fanout-measure.XXXXXX)
SERVER=
FANOUT=

. "$(dirname "$0")/common.sh"

cleanup() {
  stop_process "$SERVER"; stop_process "$FANOUT"
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ulimit -n "$(ulimit -Hn)" 2>/dev/null

SERVER_ON=() LOAD_ON=()
[ -n "${SERVER_CPUS:-}" ] && SERVER_ON=(taskset -c "$SERVER_CPUS")
[ -n "${LOAD_CPUS:-}" ] && LOAD_ON=(taskset -c "$LOAD_CPUS")
echo "pinned: server and baseline on ${SERVER_CPUS:-every core}, load generator on ${LOAD_CPUS:-every core}"

# Where each reveal's time went on the server while the watchers were on it (its /metrics
# before they connected and after they left): due -> move computed, and due -> queued
# for every watcher; the rest of "due -> last watcher" is the writers' and the network's.
reveal_stages() {
  awk '
    function stage(line) { match(line, /stage="[a-z]+"/); return substr(line, RSTART + 7, RLENGTH - 8) }
    !/^boardcast_channel_reveal_seconds/ { next }
    {
      key = $1; value = $NF
      if (FNR == NR) { before[key] = value; next }
      value -= before[key]
      s = stage($0)
      if (key ~ /_bucket/) {
        match(key, /le="[^"]+"/); n[s]++; bound[s, n[s]] = substr(key, RSTART + 4, RLENGTH - 5); cum[s, n[s]] = value
      } else if (key ~ /_sum/) { sum[s] = value } else if (key ~ /_count/) { count[s] = value }
    }
    function q(s, p,   i) {
      for (i = 1; i <= n[s]; i++)
        if (cum[s, i] >= p * count[s]) return bound[s, i] == "+Inf" ? "> 5000 ms" : "<= " 1000 * bound[s, i] " ms"
      return "> 5000 ms"
    }
    END {
      for (s in count) if (count[s] > 0)
        printf "server  : reveal due -> %s: %d reveals, mean %.2f ms, p50 %s, p99 %s (server /metrics)\n",
          s, count[s], 1000 * sum[s] / count[s], q(s, 0.5), q(s, 0.99)
    }' "$WORK/before.txt" "$WORK/after.txt"
}

for count in $COUNTS; do
  rm -f "$WORK"/bench.db*
  port=$(free_port)
  # shellcheck disable=SC2086
  "${SERVER_ON[@]}" "$R/boardcast-server" --listen "127.0.0.1:$port" --db "$WORK/bench.db" $BENCH_SERVER_FLAGS \
    >"$WORK/server.log" 2>&1 &
  SERVER=$!
  wait_listening "$SERVER" "$port" "$WORK/server.log"
  fport=$(free_port)
  "${SERVER_ON[@]}" "$R/boardcast-load" fanout-server --listen "127.0.0.1:$fport" --interval 50ms --duration 20m \
    >"$WORK/fanout.log" 2>&1 &
  FANOUT=$!
  wait_listening "$FANOUT" "$fport" "$WORK/fanout.log"
  echo "=== $count watchers, $(date -u +%H:%M:%S) UTC, $(load)"
  curl -s "http://127.0.0.1:$port/metrics" >"$WORK/before.txt"
  "${LOAD_ON[@]}" "$R/boardcast-load" spectators --addr "127.0.0.1:$port" --count "$count" --channel tv1 \
    --duration "$DURATION" --server-pid "$SERVER" \
    --fanout-addr "127.0.0.1:$fport" --fanout-pid "$FANOUT" 2>/dev/null \
    | grep --line-buffered -v -E '^(command|machine)' \
    | while IFS= read -r line; do
        if [[ $line == "-- the fan-out baseline"* ]]; then
          curl -s "http://127.0.0.1:$port/metrics" >"$WORK/after.txt"
          reveal_stages
        fi
        printf '%s\n' "$line"
      done
  echo "after: $(load)"
  stop_process "$SERVER"; SERVER=
  stop_process "$FANOUT"; FANOUT=
done
