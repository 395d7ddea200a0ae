#!/usr/bin/env bash
# make bench (part): visit and trip detection over a year of 1 Hz points (26 fortnights of the
# visit tests' simulated life, 31 M fixes), a day of it on demand, and the gazetteer: import of
# a 25 MB file shaped like GeoNames' cities500.txt and lookups. Run by bench.sh; alone:
# bash scripts/bench-visits.sh (after make release).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
out=bench-out
mkdir -p "$out"
bin=.build/release/trailbook
year="$out/year-1hz.csv"
if [ ! -s "$year" ]; then
  echo "Generating a year (26 fortnights) at 1 Hz..."
  /usr/bin/time -f "simulate: %e s" "$bin" simulate --fortnights 26 --every 1 -o "$year"
fi
echo "Input: $year, $(stat -c %s "$year") bytes"
store="$out/visits-year.sqlite"
if [ ! -s "$store" ]; then
  rm -f "$store" "$store-wal" "$store-shm"
  /usr/bin/time -f "import: %e s, max RSS %M KB" "$bin" import --store "$store" "$year" > /dev/null
fi
/usr/bin/time -f "visits over the year: %e s, max RSS %M KB" \
  "$bin" visits --store "$store" --time-zone Europe/Zurich --json > "$out/visits-year.json"
python3 - "$out/visits-year.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{d['points']} points read, {len(d['visits'])} visits, {len(d['trips'])} trips, {len(d['places'])} places")
PY
echo "One day on demand (the day and half a day either side, once home and work are remembered by the year above):"
hyperfine --warmup 3 --runs 30 --export-json "$out/visits-day.json" \
  -n "visits --day" "$bin visits --store $store --time-zone Europe/Zurich --day 2026-12-02 > /dev/null" \
  -n "visits --day, a stay from the day before" \
  "$bin visits --store $store --time-zone Europe/Zurich --day 2026-12-06 > /dev/null" \
  -n "timeline" "$bin timeline 2026-12-02 --store $store --time-zone Europe/Zurich > /dev/null"
python3 - "$out/visits-day.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"median: {r['command']} {r['median']*1000:.0f} ms")
PY

# The gazetteer: a file of cities500.txt's shape and size (200,000 rows of 19 columns, random
# places on land and sea alike), imported, then looked up.
gaz="$out/cities500-shaped.txt"
if [ ! -s "$gaz" ]; then
  python3 - "$gaz" <<'PY'
import random, sys
random.seed(500)
zones = ["Europe/Zurich", "America/New_York", "Asia/Tokyo", "Pacific/Tahiti", "Africa/Nairobi"]
with open(sys.argv[1], "w") as f:
    for i in range(200_000):
        lat, lon = random.uniform(-60, 70), random.uniform(-180, 180)
        name = "Place%06d" % i
        alternates = ",".join("%s-%d" % (name, k) for k in range(4))
        f.write("\t".join([str(1_000_000 + i), name, name, alternates, "%.5f" % lat, "%.5f" % lon, "P", "PPL",
                           "CH", "", "%02d" % (i % 26), "", "", "", str(random.randint(500, 99999)), "",
                           str(random.randint(0, 3000)), random.choice(zones), "2025-01-01"]) + "\n")
PY
fi
echo "Gazetteer: $gaz, $(stat -c %s "$gaz") bytes"
gstore="$out/gazetteer.sqlite"
rm -f "$gstore" "$gstore-wal" "$gstore-shm"
/usr/bin/time -f "geocoder import: %e s, max RSS %M KB" "$bin" geocoder import --store "$gstore" "$gaz"
python3 - "$bin" "$gstore" <<'PY'
import random, subprocess, sys, time
bin, store = sys.argv[1], sys.argv[2]
random.seed(7)
n = 200
t = time.perf_counter()
for _ in range(n):
    subprocess.run([bin, "geocoder", "near", "--lat", "%.4f" % random.uniform(-60, 70), "--lon",
                    "%.4f" % random.uniform(-180, 180), "--store", store], capture_output=True)
dt = time.perf_counter() - t
print(f"geocoder near: {n} commands in {dt:.2f} s, {n/dt:.0f} per second (a process each, store opened each time)")
PY
