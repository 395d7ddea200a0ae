#!/usr/bin/env bash
# make bench: decode speed of `trailbook decode` against gpsdecode (gpsd-clients) and `wc -l`
# on a generated 24-hour 1 Hz log, in one run on this machine. Prints medians and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every peer and every Trailbook command runs with TZ=UTC: without TZ in the environment, glibc
# looks the local zone up in /etc/localtime again and again, and gpsbabel spends half its time in
# the kernel doing so (a user who exports TZ, and every systemd service, gets the fast one). The
# import step also times gpsbabel without TZ once, for reference.
export TZ=UTC
out=bench-out
mkdir -p "$out"
bin=.build/release/trailbook
log="$out/day.nmea"
if [ ! -s "$log" ]; then
  echo "Generating a 24-hour 1 Hz ride log..."
  "$bin" simulate --duration 86400 --seed 24 -o "$log"
fi
size=$(stat -c %s "$log")
echo "Input: $log, $size bytes, $(wc -l < "$log") lines"
hyperfine --warmup 2 --runs 10 --export-json "$out/decode.json" \
  -n "trailbook decode" "$bin decode --format csv $log > /dev/null" \
  -n "gpsdecode" "gpsdecode < $log > /dev/null" \
  -n "wc -l" "wc -l < $log > /dev/null"
python3 - "$out/decode.json" "$size" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
size = int(sys.argv[2])
ours, peer, wc = (res[k]["median"] for k in ("trailbook decode", "gpsdecode", "wc -l"))
print(f"median: trailbook decode {ours*1000:.1f} ms ({size/ours/1e6:.0f} MB/s), "
      f"gpsdecode {peer*1000:.1f} ms, wc -l {wc*1000:.1f} ms ({size/wc/1e6:.0f} MB/s)")
print(f"ratio: trailbook decode is {peer/ours:.1f}x faster than gpsdecode (target >= 20x)")
PY

# Import into a fresh store against gpsbabel converting the same file to GPX.
echo
echo "Import of the same log into a new store, against gpsbabel -i nmea -o gpx..."
hyperfine --warmup 1 --runs 5 --export-json "$out/import.json" \
  --prepare "rm -f $out/bench.sqlite $out/bench.sqlite-wal $out/bench.sqlite-shm" \
  -n "trailbook import" "$bin import --store $out/bench.sqlite $log > /dev/null" \
  -n "gpsbabel" "gpsbabel -i nmea -f $log -o gpx -F $out/day.gpx"
hyperfine --warmup 1 --runs 3 --export-json "$out/import-notz.json" \
  -n "gpsbabel without TZ" "env -u TZ gpsbabel -i nmea -f $log -o gpx -F $out/day.gpx" > /dev/null
python3 - "$out/import.json" "$out/import-notz.json" <<'PY'
import json, sys
res = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
notz = json.load(open(sys.argv[2]))["results"][0]["median"]
ours, peer = res["trailbook import"], res["gpsbabel"]
print(f"median (TZ=UTC): trailbook import {ours*1000:.0f} ms, gpsbabel {peer*1000:.0f} ms; "
      f"ratio: import is {peer/ours:.1f}x faster than gpsbabel, takes {ours/peer:.3f} of its time (target >= 10x)")
print(f"for reference, gpsbabel without TZ in the environment: {notz*1000:.0f} ms")
PY
"$bin" import --store "$out/bench.sqlite" "$log" > /dev/null 2>&1 || true
echo "store: $(stat -c %s "$out/bench.sqlite") bytes after import (before VACUUM)"
# What a phone's point costs the server from HTTP body to commit, on the same store code.
python3 scripts/bench-point-cost.py "$bin" --points 2000
# BENCH_QUICK=1: decode and import only (the two ratios), a minute instead of a quarter hour.
if [ "${BENCH_QUICK:-0}" = 1 ]; then exit 0; fi

# Larger input: a 4-day log next to the 24-hour one, one run each under /usr/bin/time. Time should
# grow with the file; decode's memory should not, import's by ~100 bytes per kept point (a file's
# points wait, as their rows' integers, for its one transaction).
big="$out/4days.nmea"
if [ ! -s "$big" ]; then
  echo "Generating a 4-day 1 Hz ride log..."
  "$bin" simulate --duration 345600 --seed 96 -o "$big"
fi
echo
echo "Larger input: the 24-hour log and a 4-day log, decode and import (time, peak RSS)..."
for f in "$log" "$big"; do
  /usr/bin/time -f "%e %M" -o "$out/size.time" "$bin" decode --format csv "$f" > /dev/null
  read -r de dm < "$out/size.time"
  rm -f "$out/size.sqlite" "$out/size.sqlite-wal" "$out/size.sqlite-shm"
  /usr/bin/time -f "%e %M" -o "$out/size.time" "$bin" import --store "$out/size.sqlite" "$f" > /dev/null
  read -r ie im < "$out/size.time"
  python3 - "$f" "$(stat -c %s "$f")" "$de" "$dm" "$ie" "$im" <<'PY'
import sys
name, size, de, dm, ie, im = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
print(f"{name} ({size/1e6:.1f} MB): decode {de:.2f} s ({size/de/1e6:.0f} MB/s), peak RSS {dm/1024:.1f} MB; "
      f"import {ie:.2f} s, peak RSS {im/1024:.1f} MB")
PY
done

# Footprint of live logging: `trailbook watch` reading a 10 Hz pty feed.
secs=${BENCH_FOOTPRINT_SECONDS:-60}
link="$out/ttyBENCH"
echo
echo "Footprint: trailbook watch on a 10 Hz pseudo-terminal feed for $secs s..."
python3 scripts/pty-feed.py Samples/ride.nmea "$link" 10 $((secs + 5)) &
feeder=$!
sleep 1
/usr/bin/time -f "%e %U %S %M" -o "$out/watch.time" \
  "$bin" watch --device "$link" --format csv --duration "$secs" > "$out/watch.csv" 2> "$out/watch.err"
kill $feeder 2>/dev/null || true
wait $feeder 2>/dev/null || true
read -r elapsed user sys rss < "$out/watch.time"
python3 - "$elapsed" "$user" "$sys" "$rss" "$(($(wc -l < "$out/watch.csv") - 1))" <<'PY'
import sys
elapsed, user, system, rss, fixes = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
print(f"watch: {fixes} fixes in {elapsed:.1f} s ({fixes/elapsed:.1f} per s), CPU {100*(user+system)/elapsed:.2f}% of one core "
      f"(target < 1%), peak RSS {rss/1024:.1f} MB (target < 30 MB)")
PY

# Footprint of `record` (the long-running logger: decode, pipeline, store) on the same kind of
# feed: CPU time and peak RSS read from /proc while it runs, then it is stopped with SIGINT.
echo
echo "Footprint: trailbook record on a 10 Hz pseudo-terminal feed for $secs s..."
rm -f "$out/record.sqlite" "$out/record.sqlite-wal" "$out/record.sqlite-shm"
python3 scripts/pty-feed.py Samples/ride.nmea "$link" 10 $((secs + 5)) &
feeder=$!
sleep 1
"$bin" record --device "$link" --store "$out/record.sqlite" > "$out/record.log" 2>&1 &
recorder=$!
sleep "$secs"
ticks=$(awk '{print $14 + $15}' "/proc/$recorder/stat")
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$recorder/status")
kill -INT $recorder
wait $recorder || true
kill $feeder 2>/dev/null || true
wait $feeder 2>/dev/null || true
points=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from point").fetchone()[0])' "$out/record.sqlite")
python3 - "$ticks" "$(getconf CLK_TCK)" "$secs" "$hwm" "$points" <<'PY'
import sys
ticks, hz, secs, hwm, points = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
print(f"record: {points} points stored in {secs:.0f} s, CPU {100*ticks/hz/secs:.2f}% of one core (target < 1%), "
      f"peak RSS {hwm/1024:.1f} MB (target < 30 MB)")
PY

# Reports at scale: the day report of the 24-hour 1 Hz day, and an overlay of 365 days.
echo
echo "Reports: day report of the 24-hour log (86 400 points), overlay of 365 days..."
"$bin" import --store "$out/bench.sqlite" "$log" > /dev/null 2>&1 || true
day=$(head -c 2000 "$log" | grep -m1 -o 'RMC,[^*]*' | awk -F, '{d=$10; print "20" substr(d,5,2) "-" substr(d,3,2) "-" substr(d,1,2)}')
hyperfine --warmup 1 --runs 5 --export-json "$out/report-day.json" \
  -n "report day (24 h)" "$bin report day $day --store $out/bench.sqlite --time-zone UTC -o $out/day.html"
ls -l "$out/day.html" | awk '{printf "day report: %.2f MB (target < 2 MB)\n", $5/1e6}'
# The same with a base map from a local tile server: the warm-up fills the tile cache, the timed
# runs read it (no request; counted to show it).
: > "$out/tile-requests.txt"
rm -rf "$out/tile-cache"
python3 scripts/tile-server.py "$out/tile-requests.txt" > "$out/tile-port.txt" &
tiles=$!
for _ in $(seq 50); do [ -s "$out/tile-port.txt" ] && break; sleep 0.1; done
template="http://127.0.0.1:$(cat "$out/tile-port.txt")/{z}/{x}/{y}.png"
XDG_CACHE_HOME="$out/tile-cache" "$bin" report day $day --store $out/bench.sqlite --time-zone UTC -o $out/day-tiles.html --tiles "$template"
warm=$(wc -l < "$out/tile-requests.txt")
XDG_CACHE_HOME="$out/tile-cache" hyperfine --warmup 1 --runs 5 --export-json "$out/report-day-tiles.json" \
  -n "report day (24 h), cached tiles" "$bin report day $day --store $out/bench.sqlite --time-zone UTC -o $out/day-tiles.html --tiles '$template'"
kill $tiles 2>/dev/null || true
python3 - "$out/report-day-tiles.json" "$warm" "$(wc -l < "$out/tile-requests.txt")" "$(stat -c %s "$out/day-tiles.html")" <<'PY'
import json, sys
median = json.load(open(sys.argv[1]))["results"][0]["median"]
print(f"day report with cached tiles: median {median*1000:.0f} ms (target < 1 s), {int(sys.argv[2])} tiles fetched once, "
      f"{int(sys.argv[3]) - int(sys.argv[2])} requests in the timed runs, page {int(sys.argv[4])/1e6:.2f} MB")
PY
year="$out/year.sqlite"
if [ ! -s "$year" ]; then
  echo "Generating 365 days of one 30-minute ride each into $year (once; kept for later runs)..."
  mkdir -p "$out/year"
  for i in $(seq 0 364); do
    d=$(date -u -d "2025-01-01 + $i days" +%Y-%m-%d)
    [ -s "$out/year/$d.nmea" ] || "$bin" simulate --duration 1800 --seed $((i + 100)) --start "${d}T07:00:00" -o "$out/year/$d.nmea"
  done
  "$bin" import --store "$year" "$out"/year/*.nmea > /dev/null
fi
hyperfine --warmup 1 --runs 3 --export-json "$out/report-overlay.json" \
  --prepare "rm -rf $out/overlay" \
  -n "report overlay (365 days)" "$bin report overlay --store $year --from 2025-01-01 --to 2025-12-31 --time-zone UTC -o $out/overlay"
du -sh "$out/overlay/index.html" | awk '{print "overlay index.html: " $1}'
python3 - "$out/report-day.json" "$out/report-overlay.json" <<'PY'
import json, sys
day = json.load(open(sys.argv[1]))["results"][0]["median"]
overlay = json.load(open(sys.argv[2]))["results"][0]["median"]
print(f"median: day report {day*1000:.0f} ms (target < 500 ms); overlay of 365 days with its 365 day reports {overlay:.2f} s (target < 5 s)")
PY

# Growth: import 1, 10, 100 and 365 days into one store (30-minute 1 Hz rides, one a day); the
# import time per day should stay flat, and day queries on the 365-day store should cost what
# they cost on the 1-day store.
echo
echo "Growth: 1, 10, 100, 365 days imported into one store..."
grow="$out/grow.sqlite"
rm -f "$grow" "$grow-wal" "$grow-shm"
files=("$out"/year/*.nmea)
printf 'days,seconds_per_day,bytes_per_point\n' > "$out/growth.csv"
done_days=0
for upto in 1 10 100 365; do
  batch=("${files[@]:$done_days:$((upto - done_days))}")
  t0=$(date +%s.%N)
  "$bin" import --store "$grow" "${batch[@]}" > /dev/null
  t1=$(date +%s.%N)
  if [ "$upto" = 1 ]; then cp "$grow" "$out/grow-1.sqlite"; fi
  python3 - "$grow" "$t0" "$t1" "${#batch[@]}" "$upto" >> "$out/growth.csv" <<'PY'
import os, sqlite3, sys
path, t0, t1, n, days = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
db = sqlite3.connect(path)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
points = db.execute("select count(*) from point").fetchone()[0]
print(f"{days},{(t1 - t0) / n:.4f},{os.path.getsize(path) / points:.1f}")
PY
  done_days=$upto
done
cat "$out/growth.csv"
first=2025-01-01
hyperfine --warmup 1 --runs 10 --export-json "$out/growth-queries.json" \
  -n "rides --day (1-day store)" "$bin rides --store $out/grow-1.sqlite --day $first --time-zone UTC" \
  -n "rides --day (365-day store)" "$bin rides --store $grow --day $first --time-zone UTC" \
  -n "points --day (1-day store)" "$bin points --store $out/grow-1.sqlite --day $first --time-zone UTC" \
  -n "points --day (365-day store)" "$bin points --store $grow --day $first --time-zone UTC" \
  -n "summary --day (1-day store)" "$bin summary --store $out/grow-1.sqlite --day $first --time-zone UTC" \
  -n "summary --day (365-day store)" "$bin summary --store $grow --day $first --time-zone UTC" \
  -n "report day (1-day store)" "$bin report day $first --store $out/grow-1.sqlite --time-zone UTC -o $out/g1.html" \
  -n "report day (365-day store)" "$bin report day $first --store $grow --time-zone UTC -o $out/g365.html" > /dev/null
python3 scripts/bench-plot.py "$out/growth.csv" "$out/growth-queries.json" docs/bench-growth.svg

# The sharing server under load: 500 phones (OsmAnd protocol, a keep-alive connection each)
# posting one point a second for 60 s on loopback, a viewer of all of them on /api/live.
echo
echo "Server: 500 devices posting at 1 Hz for 60 s to trailbook serve, one live viewer..."
python3 scripts/serve-load.py "$bin" --devices 500 --seconds 60 --users 10 | tee "$out/serve-load.txt"
bash scripts/bench-postgres.sh
bash scripts/bench-google.sh
bash scripts/bench-fit.sh
bash scripts/bench-visits.sh
bash scripts/bench-web.sh
bash scripts/bench-timeline.sh
