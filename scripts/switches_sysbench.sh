#!/bin/bash
# One rampmeter server, one sysbench run: qps, the server's user and system CPU and its threads'
# voluntary / involuntary context switches, each per statement, over the counted part of the run
# (after 3 s of warm-up: logins, caches). Extra arguments go to `rampmeter serve`, so two
# settings can be compared back to back (docs/performance.md, "One group under the GIL"):
#
#   [SCRIPT=oltp_read_write] scripts/switches_sysbench.sh TREE THREADS disable|auto SECONDS \
#       [-- --thread-pool-size=2 ...]
#
# The context switches come from /proc/PID/task/*/status (voluntary_ctxt_switches: a thread
# blocked - on the GIL, a lock, a socket; nonvoluntary: preempted), CPU from /proc/PID/stat.
# The server listens on 127.0.0.1 only and is stopped at the end.
set -euo pipefail
TREE=$(cd "$1" && pwd); T=$2; PS=$3; SECS=$4; shift 4; [ "${1:-}" = "--" ] && shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=$HERE/.venv/bin/python
D=$(mktemp -d /tmp/rm-switches-XXXX)
PYTHONPATH=$TREE/src PYTHONUNBUFFERED=1 "$PY" -m rampmeter serve --port=0 \
    --bind-address=127.0.0.1 --datadir="$D/data" --max-connections=4000 "$@" > "$D/log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$D"' EXIT
for _ in $(seq 150); do grep -q "ready for connections" "$D/log" 2>/dev/null && break; sleep 0.2; done
PORT=$(grep -o "port: [0-9]*" "$D/log" | head -1 | cut -d' ' -f2)
mariadb -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE sbtest"
SB="sysbench ${SCRIPT:-oltp_point_select} --mysql-host=127.0.0.1 --mysql-port=$PORT
    --mysql-user=root --mysql-db=sbtest --tables=1 --table-size=10000 --db-ps-mode=$PS"
$SB --threads=1 prepare > /dev/null
switches() {
    cat /proc/$PID/task/*/status 2>/dev/null \
        | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v, n}'
}
# The checkpoint report at 3 s resets sysbench's counters: its second report is the counted part.
$SB --threads="$T" --time=$((SECS + 3)) --report-checkpoints=3 run > "$D/out" &
SBPID=$!
sleep 3.2
read -r u0 s0 < <(awk '{print $14, $15}' /proc/$PID/stat); read -r v0 n0 < <(switches)
wait $SBPID
read -r u1 s1 < <(awk '{print $14, $15}' /proc/$PID/stat); read -r v1 n1 < <(switches)
n=$(awk '/queries:/ {c++; if (c == 2) {print $2; exit}}' "$D/out")
qps=$(awk '/queries:/ {c++; if (c == 2) {gsub(/\(/, "", $3); print $3; exit}}' "$D/out")
TICK_US=$((1000000 / $(getconf CLK_TCK)))
grep -m1 -o "Hot path: [^(]*" "$D/log" || true
awk -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v n="$n" -v v=$((v1 - v0)) -v nv=$((n1 - n0)) \
    -v q="$qps" -v t="$TICK_US" -v args="$*" 'BEGIN {
    printf "qps %s; per statement: user %.1f us, system %.1f us, voluntary cs %.2f, involuntary cs %.2f [%s]\n",
        q, u * t / n, s * t / n, v / n, nv / n, args }'
