#!/bin/bash
# Paced 2,000 matches at 5,000 moves/s on the default SQLite store: move→ack p50/p90/p99 beside
# the fsync floor, the server's storage figures over the window and the load average. Two runs,
# each on a fresh server with a fresh database in a temporary directory under /tmp (the disk
# the floor is measured on). Optionally a third run against PostgreSQL (PG=1, needs the Debian
# postgresql package and an unprivileged system user `boardcast-pg` to run it as:
# `useradd --system boardcast-pg`; PostgreSQL refuses to run as root).
#
#   usage: storage.sh DIR      (DIR holds boardcast-server and boardcast-load, release builds)
#
# Takes about 3 minutes (5 with PG=1). Leaves nothing running and nothing on disk.
set -u
R=${1:?usage: storage.sh DIR-WITH-RELEASE-BINARIES}
R=$(cd "$R" && pwd)
for bin in boardcast-server boardcast-load; do
  [ -x "$R/$bin" ] || { echo "no $R/$bin" >&2; exit 1; }
done
COUNT=${COUNT:-2000}
RATE=${RATE:-5000}
DURATION=${DURATION:-30s}
RUNS=${RUNS:-2}
WORK=$(mktemp -d /tmp/storage-measure.XXXXXX)
chmod 755 "$WORK"   # the PostgreSQL user must reach its data directory inside
SERVER=
PGBIN=/usr/lib/postgresql/15/bin
PGDATA=$WORK/pg

cleanup() {
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
    kill "$SERVER"; wait "$SERVER" 2>/dev/null
  fi
  if [ -d "$PGDATA/data" ]; then
    runuser -u boardcast-pg -- $PGBIN/pg_ctl -D "$PGDATA/data" -m immediate -w stop >/dev/null 2>&1
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/common.sh"

# start_server DATABASE-FLAG...: starts a server on a free port; sets SERVER and ADDR.
start_server() {
  local port
  port=$(free_port)
  ADDR=127.0.0.1:$port
  # shellcheck disable=SC2086
  "$R/boardcast-server" --listen "$ADDR" "$@" $BENCH_SERVER_FLAGS >"$WORK/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do
    if curl -sf "http://$ADDR/metrics" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$SERVER" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1
}

stop_server() {
  kill "$SERVER"; wait "$SERVER" 2>/dev/null; SERVER=
}

paced() { # label, then the database flag(s)
  local label=$1; shift
  echo "=== $label, $(date -u +%H:%M:%S) UTC, $(load)"
  start_server "$@"
  "$R/boardcast-load" matches --addr "$ADDR" --count "$COUNT" --rate "$RATE" \
    --duration "$DURATION" --server-pid "$SERVER" --fsync-dir "$WORK" 2>/dev/null \
    | grep -v -E '^(command|machine|games|server RSS)'
  stop_server
  echo "after: $(load)"
}

for run in $(seq "$RUNS"); do
  rm -f "$WORK"/bench.db*
  paced "SQLite run $run of $RUNS" --db "$WORK/bench.db"
done

if [ "${PG:-0}" = 1 ]; then
  if [ -x $PGBIN/initdb ] && id boardcast-pg >/dev/null 2>&1; then
    PGPORT=$(free_port)
    mkdir -p "$PGDATA"; chown boardcast-pg "$PGDATA"
    runuser -u boardcast-pg -- $PGBIN/initdb -D "$PGDATA/data" -U boardcast --auth=trust \
      -E UTF8 --locale=C --no-sync >/dev/null
    cat >>"$PGDATA/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PGDATA'
port = $PGPORT
fsync = on
synchronous_commit = on
max_connections = 300
shared_buffers = 256MB
CONF
    runuser -u boardcast-pg -- $PGBIN/pg_ctl -D "$PGDATA/data" -l "$PGDATA/log" -w start >/dev/null
    runuser -u boardcast-pg -- $PGBIN/createdb -h 127.0.0.1 -p "$PGPORT" -U boardcast bench
    paced "PostgreSQL" --database "postgres://boardcast@127.0.0.1:$PGPORT/bench"
  else
    echo "PostgreSQL skipped: needs $PGBIN and the boardcast-pg user"
  fi
fi
