#!/usr/bin/env bash
# make bench (part): the web app's heaviest views on the year at 1 Hz of bench-visits.sh (23.9 M
# stored points) and 16 weeks of a second device (7.3 M): the day, the overlay of a year, a week's
# overlay, the heat map of all time.
# Server time (curl's total on 127.0.0.1) and bytes sent, the first look and the next. Run by
# bench.sh after bench-visits.sh; alone: bash scripts/bench-web.sh (after make release).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
out=bench-out
bin=.build/release/trailbook
year="$out/visits-year.sqlite"
if [ ! -s "$year" ]; then
  echo "bench-web: $year is missing: run bash scripts/bench-visits.sh first." >&2
  exit 66
fi
store="$out/web-year.sqlite"
rm -f "$store" "$store-wal" "$store-shm"
cp "$year" "$store"
# The issue's 30 M points: a second device of the same account, a phone carried along for 16
# weeks of the year (another seed), 7.3 M stored points more.
"$bin" simulate --fortnights 8 --every 1 --seed 7 -o "$out/web-phone.csv"
/usr/bin/time -f "import of the phone: %e s" "$bin" import --store "$store" --device-name phone "$out/web-phone.csv" \
  | tail -2
rm -f "$out/web-phone.csv"
port=8793
# The server's view cache (the overlay's and the heat map's work, kept per ride) starts empty.
source scripts/bench-serve.sh
serve_setup web "$store" "$port"
start() { serve_signed_in "$store" "$port" "$out/web-serve.log"; }
views() {
  echo "| view | first look | next look | bytes |"
  echo "|---|---|---|---|"
  for view in "/day/2026-12-02" "/days?from=2026-06-01&to=2027-05-31" "/days?from=2026-11-30&to=2026-12-06" \
    "/heatmap" "/heatmap?year=2026" "/calendar?year=2026" "/year?year=2026" "/" \
    "/app.css" "/icons.svg" "/map.js" "/live.js" "/day.js"; do
    first=$(curl -s -b "$jar" -o /dev/null -w "%{time_total}" "$base$view")
    next=$(curl -s -b "$jar" -o /dev/null -w "%{time_total} %{size_download}" "$base$view")
    echo "| \`$view\` | ${first} s | ${next% *} s | ${next#* } |"
  done
  echo "server RSS after: $(ps -o rss= -p $server) KB"
}
# The first start on this store: the server fills its cache in the background (every point read
# once); the views are timed once it has.
start
for _ in $(seq 600); do grep -q "view cache" "$out/web-serve.log" && break; sleep 1; done
echo "first start, the cache filled: $(grep -o 'view cache.*' "$out/web-serve.log")"
echo "cache file: $(du -k "$XDG_CACHE_HOME"/trailbook/views/*.sqlite | cut -f1) KB"
views
# Started again: nothing to work out, each view reads what the cache file keeps; the year in
# review is read again in the background (kept in memory only).
kill $server; wait $server 2> /dev/null || true
start
for _ in $(seq 600); do grep -q "view cache" "$out/web-serve.log" && break; sleep 1; done
echo "started again, its first round: $(grep -o 'view cache.*' "$out/web-serve.log")"
views
