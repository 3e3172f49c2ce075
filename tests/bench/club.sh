#!/bin/bash
# The ladder query's cost (issue 35, the club's new costs): a fresh SQLite database seeded with
# MEMBERS members, each with GAMES rating changes in the last day (RD 60: every one of them on
# the ladder, the most the query ever ranks for that many), then QUERIES of `GET /api/ladder`
# one after another (`boardcast-load ladder`, at nice 19 like every load generator here): the
# time to the whole answer and the server's CPU per query. The rating update's arithmetic and
# the ladder's ranking alone are `cargo bench -p boardcast-server --bench club`.
#
#   usage: club.sh DIR   (DIR holds boardcast-server, or the e2e build's boardcast-server-e2e,
#                         and boardcast-load; sqlite3 seeds the database)
#
# Takes well under a minute. Leaves nothing running and nothing on disk.
set -u
R=${1:?usage: club.sh DIR-WITH-BINARIES}
R=$(cd "$R" && pwd)
SERVER_BIN=$R/boardcast-server
[ -x "$SERVER_BIN" ] || SERVER_BIN=$R/boardcast-server-e2e
for bin in "$SERVER_BIN" "$R/boardcast-load"; do
  [ -x "$bin" ] || { echo "no $bin" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "sqlite3 seeds the database: install it" >&2; exit 1; }
MEMBERS=${MEMBERS:-1000}
GAMES=${GAMES:-20}
QUERIES=${QUERIES:-200}
WORK=$(mktemp -d /tmp/club-measure.XXXXXX)
SERVER=

. "$(dirname "$0")/common.sh"
trap stop_server_and_remove_work EXIT
trap 'exit 130' INT TERM

FLAGS=${BENCH_SERVER_FLAGS/--channels 1/--channels 0}

# The server makes its tables (with one account of its own), then sqlite3 adds the members and
# their rating changes, an hour apart, the newest an hour ago.
echo 'Tulpen-in-Dokkum-1921' | "$SERVER_BIN" --db "$WORK/bench.db" admin create-user bench \
  || { echo "cannot create the database" >&2; exit 1; }
NOW=$(date +%s%3N)
sqlite3 "$WORK/bench.db" <<SQL || exit 1
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $MEMBERS)
INSERT INTO accounts (name, name_key, password, created_ms)
  SELECT 'member' || i, 'member' || i, 'x', $NOW - 86400000 FROM n;
WITH RECURSIVE g(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM g WHERE j < $GAMES - 1)
INSERT INTO rating_changes (match_id, account_id, games_before, at_ms, rating_before, rating,
                            deviation, volatility)
  SELECT 'm' || a.id || '-' || g.j, a.id, g.j, $NOW - ($GAMES - g.j) * 3600000, 1500,
         1000 + abs(random()) % 1000, 60, 0.06
  FROM accounts a, g WHERE a.name LIKE 'member%';
SQL

port=$(free_port)
ADDR=127.0.0.1:$port
# shellcheck disable=SC2086
"$SERVER_BIN" --listen "$ADDR" --db "$WORK/bench.db" $FLAGS >"$WORK/server.log" 2>&1 &
SERVER=$!
wait_listening "$SERVER" "$port" "$WORK/server.log"

echo "=== $QUERIES ladder queries, $MEMBERS members × $GAMES rating changes, $(date -u +%H:%M:%S) UTC, $(load)"
nice -n 19 "$R/boardcast-load" ladder --addr "$ADDR" --count "$QUERIES" --server-pid "$SERVER" \
  2>/dev/null | grep -v -E '^(==|command)'
echo "after: $(load)"
