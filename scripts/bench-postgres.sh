#!/usr/bin/env bash
# The PostgreSQL store under load (the last part of `make bench`; runs alone too):
#  0. phones posting as fast as the server answers, on 50 connections for 30 s: SQLite, then
#     PostgreSQL with 1 and 2 `serve` processes, and back (points/s, p99), in one run, and PostgreSQL's
#     points/s as a share of SQLite's (the means of each setting's two runs);
#     Then 500 phones the server has never seen on 50 connections (the first second included), and
#     SQLite's 50 phones beside two API clients that sign in with their password, against alone;
#  1. the server's ingestion load (500 phones at 1 Hz for 60 s, a live viewer) with 1, 2 and 4
#     `serve` processes on one database: points/s, p99, live delay, lost;
#  2. a table growing to PG_GROWTH million points (default 1,10,100): a device's day and the
#     latest positions, timed at each size.
#  3. the same small statement sent by units that block a thread on each reply (as the store's
#     do) and by tasks that await it, 1 and 16 at once (bench-pg-statements, which `make bench`
#     builds; skipped when it is not built).
# A throwaway cluster in bench-out/pg on 127.0.0.1:54330 (as nobody when root), removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench-out
bin=.build/release/trailbook
cluster="$out/pg"
rm -rf "$cluster"
url=$(scripts/pg-cluster.sh start "$cluster" 54330)
trap 'scripts/pg-cluster.sh stop "$cluster" || true; rm -rf "$cluster"' EXIT
base=${url%/*}
# The machine's speed drifts by 20-30% within half an hour, so the runs go SQLite, PostgreSQL with
# 1 and 2 processes, then back (2, 1, SQLite): each setting's two runs have the same mean time, and
# a steady drift moves each setting's mean alike.
echo "Saturated: 50 phones posting back to back for 30 s (SQLite, PostgreSQL with 1 and 2 processes, and back)..."
saturate() {  # saturate NAME [serve-load options]: one 30-s run into $out/saturate-NAME.txt
  local name=$1
  shift
  python3 scripts/serve-load.py "$bin" --devices 50 --users 10 --seconds 30 --saturate "$@" | tee "$out/saturate-$name.txt"
}
pg() {  # pg N RUN: PostgreSQL with N processes on a new database
  psql -X -q -d "$base/postgres" -c "DROP DATABASE IF EXISTS saturate$1" -c "CREATE DATABASE saturate$1"
  saturate "pg-$1-$2" --store "$base/saturate$1" --processes "$1"
}
saturate sqlite-a
pg 1 a
pg 2 a
pg 2 b
pg 1 b
saturate sqlite-b
# The issue-38 figure: PostgreSQL's points/s against SQLite's in this same run (the means of two runs each).
pps() { awk '$1 == "points_per_s" { print $2 }' "$out/saturate-$1.txt"; }
sqlite="$(pps sqlite-a) $(pps sqlite-b)"
for n in 1 2; do
  awk -v n="$n" -v p="$(pps pg-$n-a) $(pps pg-$n-b)" -v s="$sqlite" 'BEGIN {
    split(p, a, " "); split(s, b, " "); pm = (a[1] + a[2]) / 2; sm = (b[1] + b[2]) / 2
    printf "PostgreSQL with %d process(es): %.1f points/s (%.1f, %.1f), %.2f of SQLite'"'"'s %.1f (%.1f, %.1f) in this run\n",
      n, pm, a[1], a[2], pm / sm, sm, b[1], b[2] }'
done
# Issue 64's point 5: 500 phones the server has never seen on 50 connections, their first second
# included (SQLite, PostgreSQL with 1 and 2 processes, and back); then SQLite's 50 phones alone and
# beside two API clients that sign in with their password on every request (alone, beside, beside,
# alone), and the share of its points/s the phones keep.
echo
echo "500 new phones on 50 connections, back to back for 30 s, the first second included:"
fresh() {  # fresh N RUN: 500 new phones on PostgreSQL with N processes
  psql -X -q -d "$base/postgres" -c "DROP DATABASE IF EXISTS fresh$1" -c "CREATE DATABASE fresh$1"
  python3 scripts/serve-load.py "$bin" --devices 500 --connections 50 --users 10 --seconds 30 --saturate \
    --store "$base/fresh$1" --processes "$1" | tee "$out/fresh-pg-$1-$2.txt"
}
python3 scripts/serve-load.py "$bin" --devices 500 --connections 50 --users 10 --seconds 30 --saturate \
  | tee "$out/fresh-sqlite-a.txt"
fresh 1 a
fresh 2 a
fresh 2 b
fresh 1 b
python3 scripts/serve-load.py "$bin" --devices 500 --connections 50 --users 10 --seconds 30 --saturate \
  | tee "$out/fresh-sqlite-b.txt"
echo
echo "SQLite's 50 phones alone and beside two API clients signing in with their password:"
saturate alone-a
saturate beside-a --api-clients 2
saturate beside-b --api-clients 2
saturate alone-b
awk -v b="$(pps beside-a) $(pps beside-b)" -v s="$(pps alone-a) $(pps alone-b)" 'BEGIN {
  split(b, x, " "); split(s, y, " "); bm = (x[1] + x[2]) / 2; am = (y[1] + y[2]) / 2
  printf "Beside two API clients: %.1f points/s (%.1f, %.1f), %.0f%% of alone: %.1f (%.1f, %.1f)\n",
    bm, x[1], x[2], 100 * bm / am, am, y[1], y[2] }'
for n in 1 2 4; do
  psql -X -q -d "$base/postgres" -c "DROP DATABASE IF EXISTS load$n" -c "CREATE DATABASE load$n"
  echo
  echo "Server on PostgreSQL, $n process(es): 500 devices posting at 1 Hz for 60 s, one live viewer..."
  python3 scripts/serve-load.py "$bin" --devices 500 --seconds 60 --users 10 --store "$base/load$n" --processes "$n" \
    | tee "$out/serve-load-pg-$n.txt"
done
echo
echo "A PostgreSQL store growing to ${PG_GROWTH:-1,10,100} million points (500 devices):"
psql -X -q -d "$base/postgres" -c "DROP DATABASE IF EXISTS growth" -c "CREATE DATABASE growth"
python3 scripts/bench-pg-growth.py "$bin" "$base/growth" --steps "${PG_GROWTH:-1,10,100}" | tee "$out/pg-growth.csv"
if [ -x .build/release/bench-pg-statements ]; then
  echo "Statements: blocking a thread on each reply, or awaiting it (1 and 16 units)..."
  .build/release/bench-pg-statements "$url" 20000 | tee "$out/pg-statements.txt"
else
  echo "NOTE: .build/release/bench-pg-statements is not built (make bench builds it): the statements' bench was not run."
fi
