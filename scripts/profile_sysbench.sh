#!/bin/bash
# Profile a rampmeter server under sysbench oltp_point_select: py-spy samples every thread that
# holds the GIL (--gil: where the CPU goes, not where threads wait) 200 times a second for 20 s
# while 16 (or THREADS) sysbench threads run, after WARMUP (8) s of the same run; raw collapsed
# stacks go to OUT, for scripts/profile_summary.py.
#
#   [SCRIPT=oltp_read_only] scripts/profile_sysbench.sh TREE OUT [disable|auto] [THREADS]
#   .venv/bin/pip install py-spy                          # once (not a test dependency)
#
# The server listens on 127.0.0.1 only and is stopped at the end.
set -euo pipefail
TREE=$(cd "$1" && pwd); OUT=$2; PS=${3:-disable}; THREADS=${4:-16}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=$HERE/.venv/bin/python; SPY=$HERE/.venv/bin/py-spy
D=$(mktemp -d /tmp/rm-prof-XXXX)
PYTHONPATH=$TREE/src PYTHONUNBUFFERED=1 "$PY" -m rampmeter serve --port=0 \
    --bind-address=127.0.0.1 --datadir="$D/data" --max-connections=4000 > "$D/log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$D"' EXIT
for _ in $(seq 150); do grep -q "ready for connections" "$D/log" 2>/dev/null && break; sleep 0.2; done
PORT=$(grep -o "port: [0-9]*" "$D/log" | head -1 | cut -d' ' -f2)
mariadb -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE sbtest"
SB="sysbench ${SCRIPT:-oltp_point_select} --mysql-host=127.0.0.1 --mysql-port=$PORT --mysql-user=root
    --mysql-db=sbtest --tables=1 --table-size=10000 --db-ps-mode=$PS"
$SB --threads=1 prepare > /dev/null
# One sysbench run: its threads connect and warm up (plans cached, handles open) for WARMUP s
# (not counted: the checkpoint report resets its counters), then py-spy samples 20 s of the
# steady state, so the profile holds statements, not the N logins.
WARMUP=${WARMUP:-8}
$SB --threads=$THREADS --time=$((WARMUP + 22)) --report-checkpoints=$WARMUP run \
    | grep -E "queries:" | tail -1 &
SBPID=$!
sleep "$WARMUP"
"$SPY" record --gil ${SPY_NATIVE:+--native} -r 200 -d 20 --format raw -o "$OUT" -p $PID > /dev/null 2>&1 || true
wait $SBPID || true
