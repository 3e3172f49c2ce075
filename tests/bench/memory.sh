#!/bin/bash
# Server memory (issue 17), two figures:
#  1. a live match's own heap beyond its connections, seated and after 20 and 100 plies asked
#     (`match_memory`: the real server in process, 500 private matches, glibc's mallinfo2 less
#     SQLite's page cache; random games end after about 70 plies);
#  2. what stays resident once every match has left memory: a fresh server with
#     `--finished-linger 10s --abandon-after 10s`, `boardcast-load matches --count 2000 --duration 30s
#     --max-plies 20`, then RSS and the server's heap gauges (/metrics) once no match is in
#     match is in memory and the allocator has been trimmed (the games the run cuts off are
#     abandoned 10 s after their players left).
#
#   usage: memory.sh DIR   (DIR holds boardcast-server, boardcast-load and
#                           examples/match_memory, release builds:
#                           cargo build --release --workspace --bins --examples)
#
# Takes about 3-4 minutes. Free loopback port, fresh database in a temporary directory;
# leaves nothing running and nothing on disk.
set -u
R=${1:?usage: memory.sh DIR-WITH-RELEASE-BINARIES}
R=$(cd "$R" && pwd)
for bin in boardcast-server boardcast-load examples/match_memory; do
  [ -x "$R/$bin" ] || { echo "no $R/$bin" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/memory-measure.XXXXXX)
SERVER=

. "$(dirname "$0")/common.sh"
trap stop_server_and_remove_work EXIT
trap 'exit 130' INT TERM
ulimit -n "$(ulimit -Hn)" 2>/dev/null

echo "== a live match's own heap (match_memory, 500 matches) =="
for plies in 0 20 100; do
  load
  (cd "$WORK" && "$R/examples/match_memory" 500 "$plies") || exit 1
done

echo
echo "== resident memory after 2,000 matches x 30 s (--max-plies 20) have left memory =="
PORT=$(free_port)
# shellcheck disable=SC2086
"$R/boardcast-server" --listen "127.0.0.1:$PORT" --db "$WORK/bench.db" $BENCH_SERVER_FLAGS \
  --finished-linger 10s --abandon-after 10s --max-matches 100000 > "$WORK/server.log" 2>&1 &
SERVER=$!
wait_listening "$SERVER" "$PORT" "$WORK/server.log"

metrics() { curl -s "http://127.0.0.1:$PORT/metrics"; }
rss() { awk '/^VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$SERVER/status"; }
in_memory() { metrics | awk '/^boardcast_matches\{/ { n += $NF } END { print n + 0 }'; }
phase() { metrics | awk -v p="$1" 'index($0, "boardcast_matches{phase=\"" p "\"}") == 1 { print $NF + 0 }'; }
gauges() {
  metrics | awk '/^boardcast_(heap_in_use|heap_free|sqlite_heap)_bytes / {
    printf "  %s %.1f MiB\n", $1, $NF / 1048576 }'
}

echo "RSS at start: $(rss)"
load
"$R/boardcast-load" matches --addr "127.0.0.1:$PORT" --count 2000 --duration 30s \
  --max-plies 20 --server-pid "$SERVER" --fsync-count 0
echo "RSS when the run ended: $(rss); matches in memory: $(in_memory)"
# Finished matches leave once unfollowed for the linger; the games the run cut off are ended
# as abandoned 10 s after their players left, then leave like any finished match.
for _ in $(seq 120); do
  [ "$(in_memory)" = 0 ] && break
  sleep 1
done
# The trim runs at the server's next look (every 10 s) after the count fell.
sleep 12
echo "matches in memory: $(in_memory)"
echo "RSS once every match has left memory, after the trim: $(rss)"
gauges
load
