#!/bin/bash
# An event page's updates to 1,000 spectators (issue 33): a fresh server and database, an
# organiser and MEMBERS members, then `boardcast-load event-spectators` (at nice 19 like every
# load generator here): COUNT postcard spectators follow an arena over the WebSocket while the
# members join and withdraw in turn, one change every EVERY, for DURATION. Reported: change
# asked -> first and last spectator, each push's fan-out (first -> last), deliveries/s, the
# push's size and the server's CPU per delivery, with the load average before and after.
#
#   usage: event-spectators.sh DIR   (DIR holds boardcast-server, or the e2e build's
#                                     boardcast-server-e2e, and boardcast-load: release builds)
#
# Takes about a minute. Leaves nothing running and nothing on disk.
# COUNT=1000, MEMBERS=16, EVERY=500ms and DURATION=30s may be overridden.
set -u
R=${1:?usage: event-spectators.sh DIR-WITH-BINARIES}
R=$(cd "$R" && pwd)
SERVER_BIN=$R/boardcast-server
[ -x "$SERVER_BIN" ] || SERVER_BIN=$R/boardcast-server-e2e
for bin in "$SERVER_BIN" "$R/boardcast-load"; do
  [ -x "$bin" ] || { echo "no $bin" >&2; exit 1; }
done
COUNT=${COUNT:-1000}
MEMBERS=${MEMBERS:-16}
EVERY=${EVERY:-500ms}
DURATION=${DURATION:-30s}
PASSWORD='Tulpen-in-Dokkum-1921'
WORK=$(mktemp -d /tmp/event-spectators.XXXXXX)
SERVER=

. "$(dirname "$0")/common.sh"
trap stop_server_and_remove_work EXIT
trap 'exit 130' INT TERM

ulimit -n "$(ulimit -Hn)" 2>/dev/null

FLAGS=${BENCH_SERVER_FLAGS/--channels 1/--channels 0}

members=()
for i in $(seq "$MEMBERS"); do members+=("member$i"); done
for name in organiser "${members[@]}"; do
  echo "$PASSWORD" | "$SERVER_BIN" --db "$WORK/bench.db" admin create-user "$name" >/dev/null \
    || { echo "cannot create $name" >&2; exit 1; }
done
"$SERVER_BIN" --db "$WORK/bench.db" admin grant-organiser organiser >/dev/null \
  || { echo "cannot grant the organiser right" >&2; exit 1; }

port=$(free_port)
ADDR=127.0.0.1:$port
# shellcheck disable=SC2086
"$SERVER_BIN" --listen "$ADDR" --db "$WORK/bench.db" $FLAGS >"$WORK/server.log" 2>&1 &
SERVER=$!
wait_listening "$SERVER" "$port" "$WORK/server.log"

echo "=== $COUNT spectators of one event, a change every $EVERY, $(date -u +%H:%M:%S) UTC, $(load)"
members_list=$(IFS=,; echo "${members[*]}")
nice -n 19 "$R/boardcast-load" event-spectators --addr "$ADDR" --count "$COUNT" \
  --organiser organiser --members "$members_list" --password "$PASSWORD" \
  --every "$EVERY" --duration "$DURATION" --server-pid "$SERVER" 2>&1 \
  | grep -v -E '^(==|command|open-file)'
echo "after: $(load)"
