#!/bin/bash
# Take-over time of a three-node cluster (issue 28; usage: takeover.sh DIR [RUNS], DIR holding
# release builds of boardcast-server and takeover): for each fault — owner kill -9, owner
# SIGSTOP past the lease, Redis restart, PostgreSQL restart — RUNS fresh clusters (default 5)
# with the default 5 s lease, a match owned by node a played through nodes b and c, and the
# last ack before the fault → first ack after it, per run with the load average, then p50/max.
# Needs PostgreSQL (initdb) and redis-server installed, as the cluster tests do.
set -u
R=$(cd "${1:?DIR}" && pwd)
RUNS=${2:-5}
. "$(dirname "$0")/common.sh"
echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(uname -sr)"
load
"$R/takeover" --server "$R/boardcast-server" --runs "$RUNS" --lease-ms 5000
load
