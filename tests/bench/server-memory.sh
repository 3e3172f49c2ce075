#!/bin/bash
# Server memory under the issue-17 load (usage: server-memory.sh DIR, DIR holding release
# builds of boardcast-server and boardcast-load): a fresh server, `matches --count 2000 --duration 30s` (default
# plies), RSS at start / seated / peak / end of run, then once every match has left memory
# (--finished-linger 10s --abandon-after 10s) and the trim ran.
set -u
R=$(cd "${1:?DIR}" && pwd)
W=$(mktemp -d /tmp/issue-memory.XXXXXX); S=
cleanup() { [ -n "$S" ] && kill "$S" 2>/dev/null && wait "$S" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"
. "$(dirname "$0")/common.sh"
PORT=$(free_port)
# shellcheck disable=SC2086
"$R/boardcast-server" --listen "127.0.0.1:$PORT" --db "$W/bench.db" $BENCH_SERVER_FLAGS \
  --finished-linger 10s --abandon-after 10s --max-matches 100000 > "$W/server.log" 2>&1 &
S=$!
wait_listening "$S" "$PORT" "$W/server.log"
rss() { awk '/^VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$S/status"; }
in_memory() { curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^boardcast_matches\{/ { n += $NF } END { print n + 0 }'; }
load
echo "RSS at start: $(rss)"
"$R/boardcast-load" matches --addr "127.0.0.1:$PORT" --count 2000 --duration 30s --server-pid "$S" --fsync-count 0 | grep -vE '^  t='
echo "RSS when the run ended: $(rss); matches in memory: $(in_memory)"
for i in $(seq 120); do [ "$(in_memory)" = 0 ] && break; sleep 1; done
echo "matches in memory: $(in_memory) after ${i} s"
sleep 12
echo "RSS with no match in memory, after the trim: $(rss)"
grep -E 'RssAnon|RssFile' "/proc/$S/status"
curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^boardcast_(heap_in_use|heap_free|sqlite_heap)_bytes / { printf "  %s %.1f MiB\n", $1, $NF / 1048576 }'
load
