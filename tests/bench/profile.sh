#!/bin/bash
# A member's profile and PDN export under a long history: a fresh SQLite database in which one
# member has GAMES finished games (seeded with sqlite3: a match, its two `player_joined`
# records — the seats trigger files them — and a PDN of some 600 bytes each) and a rating
# change for each, then QUERIES of `GET /api/user/{name}` one after another on one kept-alive
# curl connection: the server's time per request (curl's time to the first byte less its time
# to have sent the request), median, least, most and mean, and the server's CPU time per
# request (its utime + stime over them); then DOWNLOADS of the whole
# `games.pdn`, its size and time.
#
#   usage: profile.sh DIR   (DIR holds boardcast-server, or the e2e build's
#                            boardcast-server-e2e; sqlite3 seeds, curl asks)
#
# Takes well under a minute. Leaves nothing running and nothing on disk.
set -u
R=${1:?usage: profile.sh DIR-WITH-BINARIES}
R=$(cd "$R" && pwd)
SERVER_BIN=$R/boardcast-server
[ -x "$SERVER_BIN" ] || SERVER_BIN=$R/boardcast-server-e2e
[ -x "$SERVER_BIN" ] || { echo "no $SERVER_BIN" >&2; exit 1; }
for tool in sqlite3 curl; do
  command -v $tool >/dev/null || { echo "$tool is needed: install it" >&2; exit 1; }
done
GAMES=${GAMES:-1000}
QUERIES=${QUERIES:-300}
DOWNLOADS=${DOWNLOADS:-5}
WORK=$(mktemp -d /tmp/profile-measure.XXXXXX)
SERVER=

cleanup() {
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
    kill "$SERVER"; wait "$SERVER" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/common.sh"
FLAGS=${BENCH_SERVER_FLAGS/--channels 1/--channels 0}

echo 'Tulpen-in-Dokkum-1921' | "$SERVER_BIN" --db "$WORK/bench.db" admin create-user member \
  || { echo "cannot create the database" >&2; exit 1; }
NOW=$(date +%s%3N)
MOVES=$(for i in $(seq 1 40); do printf '%d. 32-28 19-23 ' "$i"; done)
sqlite3 "$WORK/bench.db" <<SQL || exit 1
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $GAMES)
INSERT INTO matches (id, created_ms, setup, finished, result, pdn)
  SELECT 'g' || i, $NOW - ($GAMES - i) * 60000, '{}', 1, CASE i % 3 WHEN 0 THEN '2-0'
         WHEN 1 THEN '1-1' ELSE '0-2' END,
         '[Event "g' || i || '"]' || char(10) || '[White "member"]' || char(10) ||
         '[Black "guest"]' || char(10) || '$MOVES*' || char(10) FROM n;
INSERT INTO events (match_id, v, at_ms, body)
  SELECT id, 1, created_ms, json_object('event', json_object('player_joined',
         json_object('side', 'white', 'name', 'member', 'bot', json('false'))),
         'account', (SELECT id FROM accounts WHERE name_key = 'member')) FROM matches;
INSERT INTO events (match_id, v, at_ms, body)
  SELECT id, 2, created_ms, json_object('event', json_object('player_joined',
         json_object('side', 'black', 'name', 'guest', 'bot', json('false')))) FROM matches;
INSERT INTO rating_changes (match_id, account_id, games_before, at_ms, rating_before, rating,
                            deviation, volatility)
  SELECT m.id, a.id, row_number() OVER (ORDER BY m.created_ms) - 1, m.created_ms, 1500,
         1400 + abs(random()) % 200, 60, 0.06
  FROM matches m, accounts a WHERE a.name_key = 'member';
SQL
echo "seats filed: $(sqlite3 "$WORK/bench.db" 'SELECT count(*) FROM seats WHERE account_id IS NOT NULL')"

port=$(free_port)
ADDR=127.0.0.1:$port
URL=http://$ADDR
# shellcheck disable=SC2086
"$SERVER_BIN" --listen "$ADDR" --db "$WORK/bench.db" $FLAGS >"$WORK/server.log" 2>&1 &
SERVER=$!
wait_listening "$SERVER" "$port" "$WORK/server.log"

echo "=== $QUERIES profiles of a member with $GAMES games, $(date -u +%H:%M:%S) UTC, $(load)"
curl -s -o /dev/null -w '%{http_code} %{size_download} bytes\n' "$URL/api/user/member"
args=()
for _ in $(seq 1 "$QUERIES"); do args+=(-o /dev/null "$URL/api/user/member"); done
cpu() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
cpu_before=$(cpu)
curl -s -w '%{http_code} %{time_pretransfer} %{time_starttransfer}\n' "${args[@]}" \
  >"$WORK/times"
cpu_after=$(cpu)
awk -v ticks=$((cpu_after - cpu_before)) -v hz="$(getconf CLK_TCK)" -v n="$QUERIES" \
  'BEGIN {printf "server CPU: %.3f ms a request\n", ticks * 1000 / hz / n}' 
echo "answers: $(cut -d' ' -f1 "$WORK/times" | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
awk '$1 == 200 {print ($3 - $2) * 1000}' "$WORK/times" | sort -n | awk '{a[NR]=$1; s+=$1} END {
  printf "server time: median %.3f ms, least %.3f ms, most %.3f ms, mean %.3f ms\n",
    a[int((NR+1)/2)], a[1], a[NR], s/NR }'
echo "=== $DOWNLOADS downloads of games.pdn, $(load)"
for _ in $(seq 1 "$DOWNLOADS"); do
  curl -s -o /dev/null -w '%{http_code} %{size_download} bytes %{time_total} s\n' \
    "$URL/@/member/games.pdn"
done
echo "server resident memory: $(ps -o rss= -p "$SERVER") kB"
echo "after: $(load)"
