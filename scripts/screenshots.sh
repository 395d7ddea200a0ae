#!/usr/bin/env bash
# The README's screenshots of the web app, made again from the samples: a store with Samples/ride.nmea
# and a record with a photo for "ana", a friend "ben" who shares his afternoon, two places, the
# demo grid tiles (Samples/make-demo-tiles.py: not a real map), then headless Chromium
# (scripts/browse.py) on six pages. Writes docs/screenshots/*.png.
#
# usage: scripts/screenshots.sh   (after `make build`; needs chromium and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
# The newer of the release and debug builds.
bin=$(ls -t .build/release/trailbook .build/debug/trailbook 2> /dev/null | head -1 || true)
[ -n "$bin" ] || { echo "Build first: make build" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
store=$work/s.sqlite
password="correct horse battery staple"
out=docs/screenshots
mkdir -p "$out"

for user in ana ben; do printf '%s' "$password" | "$bin" user add "$user" --password-stdin --store "$store" > /dev/null; done
"$bin" import --store "$store" --user ana Samples/ride.nmea > /dev/null
id=$("$bin" mark --user ana --store "$store" --at "2026-06-14 08:40" --note "Swans on the lake" --field mood=calm \
  --time-zone Europe/Zurich --json | python3 -c 'import json,sys;print(json.load(sys.stdin)["id"])')
"$bin" photo add "$id" Samples/photos/lake.jpg --user ana --store "$store" > /dev/null
"$bin" day 2026-06-14 --store "$store" --user ana --summary "Round the lake before work; swans at the pier." > /dev/null
"$bin" place add home --lat 47.3769 --lon 8.5417 --radius 150 --user ana --store "$store" > /dev/null
"$bin" place add pier --lat 47.3655 --lon 8.5470 --radius 60 --user ana --store "$store" > /dev/null
python3 Samples/make-demo-tiles.py "$work/tiles.mbtiles" 47.33 8.48 47.42 8.60 11 17 > /dev/null
printf '[time]\nzone = "Europe/Zurich"\n[maps]\ntiles = "mbtiles:%s"\nattribution = "Demo grid tiles (not a real map)"\n' \
  "$work/tiles.mbtiles" > "$work/config.toml"
"$bin" serve --store "$store" --config "$work/config.toml" --listen 127.0.0.1:0 2> "$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$work/serve.log" && break; sleep 0.1; done
base=$(grep -o 'listening on http://[0-9.:]*' "$work/serve.log" | head -1 | cut -d' ' -f3)

# Today: Ana's phone and Ben's bike, posting as OsmAnd does; Ben shares his track with Ana.
token() { "$bin" device add "$1" --user "$2" --store "$store" --json | python3 -c 'import json,sys;print(json.load(sys.stdin)["token"])'; }
ana_phone=$(token phone ana)
ben_bike=$(token bike ben)
python3 - "$base" "$ana_phone" "$ben_bike" <<'PY'
import math, sys, time, urllib.request
base, ana, ben = sys.argv[1:4]
now = int(time.time())
for i in range(60):
    a = i / 60 * 2 * math.pi
    for token, lat, lon, r in ((ana, 47.372, 8.540, 0.004), (ben, 47.380, 8.525, 0.003)):
        url = f"{base}/osmand?id={token}&lat={lat + r * math.sin(a):.6f}&lon={lon + 1.4 * r * math.cos(a):.6f}&timestamp={now - 3600 + i * 60}"
        urllib.request.urlopen(url).read()
PY
code=$(curl -s -u "ben:$password" -X POST -d '{"scopes":["live","motion","history"],"history_hours":24}' \
  "$base/api/share-codes" | python3 -c 'import json,sys;print(json.load(sys.stdin)["code"])')
curl -s -u "ana:$password" -X POST -d "{\"code\":\"$code\"}" "$base/api/share-codes/redeem" > /dev/null

# Ana signs in.
jar=$work/jar
login=$(curl -s -c "$jar" "$base/" | grep -o 'name="csrf" value="[^"]*"' | head -1 | cut -d'"' -f4)
curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "csrf=$login" --data-urlencode user=ana \
  --data-urlencode "password=$password" "$base/login"
session=$(awk '$6 == "trailbook_session" {print $7}' "$jar")
shot() { python3 scripts/browse.py "$base$1" --cookie "trailbook_session=$session" --width "$2" "${@:4}" "shot:$out/$3" > /dev/null; }
shot / 1280 home.png "wait:document.querySelectorAll('#map circle').length>=2"
shot /day/2026-06-14 1280 day.png "wait:!!document.querySelector('svg#map')"
shot /day/2026-06-14 390 day-phone.png "wait:!!document.querySelector('svg#map')"
shot /year?year=2026 1280 year.png
shot /calendar?year=2026 1280 calendar.png
shot /places 390 places.png "wait:document.querySelectorAll('#map circle.place').length===2"
shot /friends 390 friends.png "wait:document.querySelectorAll('#map circle').length>=1"
ls -l "$out"
