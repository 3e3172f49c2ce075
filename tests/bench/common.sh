# What the benchmark scripts share; sourced, not run.

# The server flags of BENCHMARKS.md "How to reproduce": every client comes from 127.0.0.1,
# so the per-connection and per-address allowances must hold thousands of them, and the
# first-move timeout must outlast setting up thousands of matches.
BENCH_SERVER_FLAGS="--channels 1 --ply-interval 50ms --game-pause 200ms --max-connections 30000 \
  --rate 100000 --burst 100000 --log warn --max-connections-per-address 30000 \
  --connection-reserve 0 --upgrades-per-minute 1000000 --matches-per-minute 1000000 \
  --open-seeks-per-address 30000 --first-move-timeout 10m"

# A free loopback TCP port.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# stop_process PID: ends PID if it still runs and waits for it; nothing if PID is empty.
stop_process() {
  if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
    kill "$1"; wait "$1" 2>/dev/null
  fi
}

# The EXIT trap of a script that runs one server (its pid in SERVER, empty while none runs)
# and keeps its files in WORK: the server is ended and WORK removed, however the script ends.
stop_server_and_remove_work() {
  stop_process "$SERVER"
  rm -rf "$WORK"
}

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }

# wait_listening PID PORT LOG: waits until PID listens on PORT; exits with LOG if it never does.
wait_listening() {
  for _ in $(seq 100); do
    if ss -ltnH "sport = :$2" | grep -q LISTEN; then return 0; fi
    if ! kill -0 "$1" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "nothing listens on $2:" >&2; cat "$3" >&2; exit 1
}
