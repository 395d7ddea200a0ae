#!/usr/bin/env bash
# The PostgreSQL store under load (the last part of `make bench`; runs alone too):
#  0. phones posting as fast as the server answers, on 50 connections for 30 s: SQLite, then
#     PostgreSQL with 1 and 2 `serve` processes (points/s, p99), in one run, and PostgreSQL's points/s as a
#     share of SQLite's;
#  1. the server's ingestion load (500 phones at 1 Hz for 60 s, a live viewer) with 1, 2 and 4
#     `serve` processes on one database: points/s, p99, live delay, lost;
#  2. a table growing to PG_GROWTH million points (default 1,10,100): a device's day and the
#     latest positions, timed at each size.
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
echo "Saturated: 50 phones posting back to back for 30 s (SQLite, then PostgreSQL with 1 and 2 processes)..."
python3 scripts/serve-load.py "$bin" --devices 50 --users 10 --seconds 30 --saturate | tee "$out/saturate-sqlite.txt"
for n in 1 2; do
  psql -X -q -d "$base/postgres" -c "DROP DATABASE IF EXISTS saturate$n" -c "CREATE DATABASE saturate$n"
  python3 scripts/serve-load.py "$bin" --devices 50 --users 10 --seconds 30 --saturate --store "$base/saturate$n" \
    --processes "$n" | tee "$out/saturate-pg-$n.txt"
done
# The issue-38 figure: PostgreSQL's points/s against SQLite's in this same run.
pps() { awk '$1 == "points_per_s" { print $2 }' "$1"; }
for n in 1 2; do
  awk -v n="$n" -v p="$(pps "$out/saturate-pg-$n.txt")" -v s="$(pps "$out/saturate-sqlite.txt")" \
    'BEGIN { printf "PostgreSQL with %d process(es): %.1f points/s, %.2f of SQLite'"'"'s %.1f in this run\n", n, p, p / s, s }'
done
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
