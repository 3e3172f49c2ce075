#!/bin/bash
# The list of club events under a long life (`GET /api/events`): a fresh SQLite database in
# which the club ran EVENTS events (each created over HTTP to start at once with nobody in it,
# so it is over at once), then QUERIES of `GET /api/events` one after another with curl: the
# first after a restart (nothing kept in memory), then the median, least, most and mean time
# to the whole answer, its size, and the server's resident memory after them. Before the list
# was paged every request showed every event, reading back from storage each one past the 256
# a node keeps; now it shows the waiting and running ones and 20 finished ones a page.
#
#   usage: events-list.sh DIR   (DIR holds boardcast-server, or the e2e build's
#                                boardcast-server-e2e; curl sends the requests)
#
# Takes about half a minute. Leaves nothing running and nothing on disk.
set -u
R=${1:?usage: events-list.sh DIR-WITH-BINARIES}
R=$(cd "$R" && pwd)
SERVER_BIN=$R/boardcast-server
[ -x "$SERVER_BIN" ] || SERVER_BIN=$R/boardcast-server-e2e
[ -x "$SERVER_BIN" ] || { echo "no $SERVER_BIN" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl sends the requests: install it" >&2; exit 1; }
EVENTS=${EVENTS:-1000}
QUERIES=${QUERIES:-20}
PORT=${PORT:-47821}
WORK=$(mktemp -d /tmp/events-list.XXXXXX)
SERVER=
URL=http://127.0.0.1:$PORT

. "$(dirname "$0")/common.sh"
trap stop_server_and_remove_work EXIT
trap 'exit 130' INT TERM

start() {
  "$SERVER_BIN" --db "$WORK/db" --listen 127.0.0.1:$PORT --log error >>"$WORK/log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "$URL/api/events" && return; sleep 0.1; done
  echo "the server did not start" >&2; exit 1
}

stop() {
  stop_process "$SERVER"; SERVER=
}

printf 'Events-list-bench-1\n' | "$SERVER_BIN" --db "$WORK/db" admin create-user Organiser --admin >/dev/null
start
COOKIE=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
  -d '{"name":"Organiser","password":"Events-list-bench-1"}' "$URL/api/login" |
  grep -i '^set-cookie: boardcast_session=' | sed 's/^[^:]*: //; s/;.*//' | tr -d '\r')
for i in $(seq 1 "$EVENTS"); do
  curl -s -o /dev/null -w '%{http_code}\n' -H "Cookie: $COOKIE" -H "Origin: $URL" \
    -H 'Sec-Fetch-Site: same-origin' -H 'Content-Type: application/json' \
    -d "{\"name\":\"Old $i\",\"kind\":\"swiss\",\"time_control\":\"5+3\",\"rounds\":3}" "$URL/api/events"
done | sort | uniq -c | sed 's/^/created: /'
sleep 2
# Started again: nothing is kept in memory.
stop
start
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first after a restart: $(curl -s -o /dev/null -w '%{time_total} s, %{size_download} bytes' "$URL/api/events")"
for _ in $(seq 1 "$QUERIES"); do
  curl -s -o /dev/null -w '%{time_total}\n' "$URL/api/events"
done | sort -n | awk '{a[NR]=$1; s+=$1} END {
  printf "%d after it: median %.4f s, least %.4f s, most %.4f s, mean %.4f s\n", NR, a[int((NR+1)/2)], a[1], a[NR], s/NR }'
echo "server resident memory: $(ps -o rss= -p "$SERVER") kB"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
