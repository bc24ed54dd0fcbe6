#!/bin/bash
# Run sysbench oltp_point_select at 16 connections several times against one tree's server and
# log, per run, qps, the server's CPU per statement (utime + stime from /proc/PID/stat), its
# thread count and the pool's own counters (information_schema.THREAD_POOL_GROUPS / _STATS,
# flushed before each run): to see whether throughput flips between regimes, and what the pool
# did in each (docs/performance.md, "The bimodal point select at 16 connections").
#
#   scripts/repeat_point_select.sh TREE RUNS_PER_SERVER SERVERS [disable|auto] [WARM1]
#
# WARM1=1 runs a 10 s 1-connection step first on each server (the order of sweep_sysbench.py).
# Servers listen on 127.0.0.1 only and are stopped at the end of their runs.
set -euo pipefail
TREE=$(cd "$1" && pwd); N=$2; S=$3; PS=${4:-disable}; WARM1=${5:-0}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=$HERE/.venv/bin/python
TICK_US=$((1000000 / $(getconf CLK_TCK)))
for s in $(seq "$S"); do
    D=$(mktemp -d /tmp/rm-repeat-XXXX)
    PYTHONPATH=$TREE/src PYTHONUNBUFFERED=1 "$PY" -m rampmeter serve --port=0 \
        --bind-address=127.0.0.1 --datadir="$D/data" --max-connections=4000 > "$D/log" 2>&1 &
    PID=$!
    trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$D"' EXIT
    for _ in $(seq 150); do grep -q "ready for connections" "$D/log" 2>/dev/null && break; sleep 0.2; done
    PORT=$(grep -o "port: [0-9]*" "$D/log" | head -1 | cut -d' ' -f2)
    M="mariadb -h127.0.0.1 -P$PORT -uroot"
    $M -e "CREATE DATABASE sbtest"
    SB="sysbench oltp_point_select --mysql-host=127.0.0.1 --mysql-port=$PORT --mysql-user=root
        --mysql-db=sbtest --tables=1 --table-size=10000 --db-ps-mode=$PS"
    $SB --threads=1 prepare > /dev/null
    [ "$WARM1" = 1 ] && $SB --threads=1 --time=10 run > /dev/null
    for r in $(seq "$N"); do
        $M -e "FLUSH THREAD_POOL_STATS"
        c0=$(awk '{print $14 + $15}' /proc/$PID/stat)
        out=$($SB --threads=16 --time=10 run)
        c1=$(awk '{print $14 + $15}' /proc/$PID/stat)
        n=$(echo "$out" | awk '/queries:/ {print $2; exit}')
        qps=$(echo "$out" | awk '/queries:/ {gsub(/\(/, "", $3); print $3; exit}')
        us=$(awk -v d=$((c1 - c0)) -v n="$n" -v t="$TICK_US" 'BEGIN {printf "%.1f", d * t / n}')
        g=$($M -N -e "SELECT GROUP_CONCAT(CONCAT(GROUP_ID, ':threads=', THREADS, ',active=',
            ACTIVE_THREADS) SEPARATOR ' ') FROM information_schema.THREAD_POOL_GROUPS")
        st=$($M -N -e "SELECT GROUP_CONCAT(CONCAT(GROUP_ID, ':created=', THREAD_CREATIONS,
            ',wakes=', WAKES, ',stalls=', STALLS, ',listener_polls=', POLLS_BY_LISTENER,
            ',listener_ran=', DEQUEUES_BY_LISTENER, ',worker_ran=', DEQUEUES_BY_WORKER)
            SEPARATOR ' ') FROM information_schema.THREAD_POOL_STATS")
        echo "server $s run $r: $qps qps $us us/stmt tasks=$(ls /proc/$PID/task | wc -l) | $g | $st"
    done
    kill $PID; wait $PID 2>/dev/null || true; rm -rf "$D"; trap - EXIT
done
