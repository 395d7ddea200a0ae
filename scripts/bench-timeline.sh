#!/usr/bin/env bash
# make bench (part): the kept timeline (issue 80, docs/TIMELINE.md) on a year of a phone at one
# point every 4 s (26 fortnights of the visit tests' simulated life, about 5 M points): the
# import that keeps it, a rebuild of the whole, and what readers cost once it is kept: the
# CLI's `timeline DAY --json`, `summary --day`, `year`, and the server's day page, /api/days,
# calendar and year (curl's total on 127.0.0.1, the first look and the next), with the server's
# RSS. Run by bench.sh; alone: bash scripts/bench-timeline.sh (after make release).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
out=bench-out
mkdir -p "$out"
bin=.build/release/trailbook
csv="$out/year-4s.csv"
if [ ! -s "$csv" ]; then
  echo "Generating a year (26 fortnights), a point every 4 s..."
  /usr/bin/time -f "simulate: %e s" "$bin" simulate --fortnights 26 --every 4 -o "$csv"
fi
echo "Input: $csv, $(stat -c %s "$csv") bytes, $(($(wc -l < "$csv") - 1)) points"
store="$out/timeline-year.sqlite"
rm -f "$store" "$store-wal" "$store-shm"
/usr/bin/time -f "import (the timeline kept as it ends): %e s, max RSS %M KB" \
  "$bin" import --store "$store" --time-zone Europe/Zurich "$csv" | tail -1
zone=(--store "$store" --time-zone Europe/Zurich)
/usr/bin/time -f "timeline rebuild of the whole year: %e s, max RSS %M KB" \
  "$bin" timeline rebuild "${zone[@]}" --json > "$out/timeline-rebuild.json"
python3 - "$out/timeline-rebuild.json" <<'PY'
import json, sys
print("rebuild:", json.load(open(sys.argv[1])))
PY
day=2026-12-02
hyperfine --warmup 3 --runs 20 --export-json "$out/timeline-cli.json" \
  -n "timeline $day --json" "$bin timeline $day ${zone[*]} --json > /dev/null" \
  -n "summary --day $day" "$bin summary --day $day ${zone[*]} > /dev/null" \
  -n "visits --day $day" "$bin visits --day $day ${zone[*]} > /dev/null" \
  -n "year 2026 --json" "$bin year 2026 ${zone[*]} --json > /dev/null"
python3 - "$out/timeline-cli.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"median: {r['command']} {r['median']*1000:.0f} ms (min {r['min']*1000:.0f} ms)")
PY
# A process's own start, for what the commands above cost beyond it.
hyperfine --warmup 3 --runs 20 -N --export-json "$out/timeline-start.json" "$bin --version" > /dev/null
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f\"median: trailbook --version {r['median']*1000:.0f} ms\")" \
  "$out/timeline-start.json"

# The server on the same store: the store's own user signs in.
port=8794
source scripts/bench-serve.sh
serve_setup timeline "$store" "$port"
serve_signed_in "$store" "$port" "$out/timeline-serve.log"
for _ in $(seq 600); do grep -q "view cache" "$out/timeline-serve.log" && break; sleep 1; done
echo "server's first round: $(grep -o 'view cache.*' "$out/timeline-serve.log" || echo 'not logged')"
echo "| view | first look | next look | median of 10 | bytes |"
echo "|---|---|---|---|---|"
for view in "/day/$day" "/api/days/$day" "/calendar?year=2026" "/year?year=2026"; do
  first=$(curl -s -b "$jar" -o /dev/null -w "%{time_total}" "$base$view")
  next=$(curl -s -b "$jar" -o /dev/null -w "%{time_total} %{size_download}" "$base$view")
  median=$(for _ in $(seq 10); do curl -s -b "$jar" -o /dev/null -w "%{time_total}\n" "$base$view"; done \
    | sort -n | sed -n 5p)
  echo "| \`$view\` | ${first} s | ${next% *} s | ${median} s | ${next#* } |"
done
echo "server RSS after: $(ps -o rss= -p $server) KB"
