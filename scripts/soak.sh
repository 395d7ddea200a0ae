#!/usr/bin/env bash
# Soak test: `trailbook record` on a 10 Hz pseudo-terminal feed (time compressed: one simulated
# second per 0.1 s) for SOAK_SECONDS (default 600), with the receiver unplugged and replugged every
# SOAK_UNPLUG_EVERY seconds (default 60), while readers run rides/points/summary/report day in a
# loop. Samples the recorder's RSS and open descriptors every 5 s into bench-out/soak.csv and
# prints the curve's summary, reader runs and failures ("database is locked" included), and the
# store's integrity. Exit 1 if a reader failed or the store is not sound.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SOAK_SECONDS:-600}
unplug=${SOAK_UNPLUG_EVERY:-60}
out=bench-out/soak
bin=.build/release/trailbook
rm -rf "$out" && mkdir -p "$out"
store="$out/soak.sqlite"
echo "Generating $((seconds * 10 + 600)) s of simulated ride..."
"$bin" simulate --duration $((seconds * 10 + 600)) --seed 42 --start 2026-06-14T00:00:00 -o "$out/log.nmea"
python3 scripts/pty-feed.py "$out/log.nmea" "$out/ttyGPS" 10 $((seconds + 5)) "$unplug" 2> "$out/feed.err" &
feeder=$!
sleep 1
"$bin" record --device "$out/ttyGPS" --store "$store" --log-level info 2> "$out/record.log" &
recorder=$!
reads=0
failures=0
(
  while kill -0 $recorder 2>/dev/null; do
    for cmd in "rides --json" "points --day 2026-06-14 --time-zone UTC --format jsonl" \
      "summary --day 2026-06-14 --time-zone UTC --json" "report day 2026-06-14 --time-zone UTC -o $out/day.html"; do
      if ! $bin $cmd --store "$store" > /dev/null 2> "$out/reader.err"; then
        # Before the first commit there is nothing to summarise yet (exit 66): not a failure.
        if [ -s "$store" ] && ! grep -q "No rides stored" "$out/reader.err"; then
          echo "FAIL $cmd: $(cat "$out/reader.err")" >> "$out/readers.log"
        fi
      fi
      echo ok >> "$out/reads.log"
    done
  done
) &
readers=$!
echo "seconds,rss_kb,fds,points" > "$out/soak.csv"
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
  sleep 5
  rss=$(awk '/VmRSS/ {print $2}' /proc/$recorder/status)
  fds=$(ls /proc/$recorder/fd | wc -l)
  points=$(python3 -c "import sqlite3,sys; print(sqlite3.connect('file:$store?mode=ro', uri=True).execute('select count(*) from point').fetchone()[0])" 2>/dev/null || echo 0)
  echo "$(( $(date +%s) - start )),$rss,$fds,$points" >> "$out/soak.csv"
done
kill -TERM $recorder; wait $recorder || true
kill $feeder 2>/dev/null || true; wait $feeder 2>/dev/null || true
wait $readers 2>/dev/null || true
reads=$(wc -l < "$out/reads.log" 2>/dev/null || echo 0)
failures=$( [ -f "$out/readers.log" ] && wc -l < "$out/readers.log" || echo 0)
integrity=$(python3 -c "import sqlite3; print(sqlite3.connect('$store').execute('pragma integrity_check').fetchone()[0])")
python3 - "$out/soak.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rss = [int(r["rss_kb"]) for r in rows]; fds = [int(r["fds"]) for r in rows]; pts = [int(r["points"]) for r in rows]
n = len(rss); q = max(1, n // 4)
print(f"samples {n}: RSS first quarter mean {sum(rss[:q])/q/1024:.1f} MB, last quarter mean {sum(rss[-q:])/q/1024:.1f} MB, max {max(rss)/1024:.1f} MB")
print(f"open descriptors: first {fds[0]}, last {fds[-1]}, max {max(fds)}; points stored: {pts[-1]}")
PY
echo "feed: $(cat "$out/feed.err")"
echo "recorder: connections $(grep -c "\[TrailbookCommands\] connected" "$out/record.log" || true), disconnections $(grep -c "\[TrailbookCommands\] disconnected" "$out/record.log" || true), log lines with a warning or error $(grep -ciE 'warning|error' "$out/record.log" || true)"
echo "readers: $reads runs, $failures failures; locked: $(grep -c 'locked' "$out/readers.log" 2>/dev/null || echo 0)"
echo "integrity_check: $integrity"
[ "$failures" -eq 0 ] && [ "$integrity" = "ok" ]
