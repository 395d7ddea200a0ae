#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (Sources/Fuzz, -sanitize=fuzzer,address) into .build/fuzz
# and runs each for FUZZ_SECONDS (default 60), seeded from Samples/ and small generated inputs.
# Crashes land in .build/fuzz/crashes/<target>/; the script exits 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"nmea gpx json-track exif config"}
work=.build/fuzz
mkdir -p "$work/corpus" "$work/crashes"

seed() {  # seed TARGET: fills .build/fuzz/corpus/TARGET once
  local dir="$work/corpus/$1"
  [ -d "$dir" ] && return 0
  mkdir -p "$dir"
  case "$1" in
    nmea)
      cp Samples/edge/*.nmea "$dir/"
      head -c 4000 Samples/ride.nmea > "$dir/ride-start.nmea"
      tail -c 4000 Samples/ride.nmea > "$dir/ride-end.nmea" ;;
    gpx)
      printf '%s\n' '<?xml version="1.0"?>' '<gpx version="1.1" creator="t"><wpt lat="47.1" lon="8.2"><time>2026-06-14T06:30:00Z</time><name>A &amp; B</name><desc><![CDATA[x<y]]></desc></wpt>' \
        '<trk><trkseg><trkpt lat="47.1" lon="8.2"><ele>400</ele><time>2026-06-14T06:30:01.5+02:00</time><hdop>0.9</hdop><sat>7</sat><fix>3d</fix></trkpt></trkseg></trk></gpx>' > "$dir/small.gpx"
      printf '<gpx><!-- c --><rte><rtept lat="1" lon="2"/></rte><trk><trkseg><trkpt lat="-1" lon="-2"><speed>3</speed><course>90</course></trkpt></trkseg></trk></gpx>' > "$dir/gpx10.gpx" ;;
    json-track)
      printf '{"name":"r","time":"2026-06-14T06:30:00Z","segments":[{"coords":[{"latitude":47.1,"longitude":8.2,"altitude":400,"time":"2026-06-14T06:30:00Z"},{"latitude":47.2,"longitude":8.3}]}],"distance":1.5,"feetClimbed":3}' > "$dir/track.json" ;;
    exif)
      /usr/bin/python3 - "$dir" <<'PY'
import sys
from PIL import Image
d = sys.argv[1]
img = Image.new("RGB", (8, 8), (10, 200, 30))
e = Image.Exif()
e[0x8769] = {0x9003: "2026:06:14 08:31:05", 0x9011: "+02:00"}
e[0x8825] = {1: "N", 2: (47.0, 22.0, 40.5), 3: "E", 4: (8.0, 32.0, 30.0), 5: b"\x00", 6: 410.5, 7: (6.0, 31.0, 5.0), 0x1D: "2026:06:14"}
img.save(d + "/gps.jpg", "JPEG", exif=e)
img.save(d + "/plain.jpg", "JPEG")
PY
      ;;
    config)
      printf '%s\n' 'preset = "ride"' '[collection]' 'interval = 5' 'min_distance = 10' '[accuracy]' 'max_hdop = 4.5' 'min_sats = 5' \
        '[active_hours]' 'windows = ["07:00-12:00", "22:00-06:00"]' 'weekdays = ["mon", "fri"]' '[time]' 'zone = "Europe/Zurich"' > "$dir/config.toml" ;;
  esac
}

status=0
for t in $targets; do
  echo "== fuzz-$t: building (first build of the instrumented package takes minutes)"
  TRAILBOOK_FUZZ=1 swift build -c release --scratch-path "$work/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "fuzz-$t" 2>&1 | grep -E "error|warning: unre|Compiling fuzz|Build" || true
  bin="$work/build/release/fuzz-$t"
  [ -x "$bin" ] || { echo "fuzz-$t did not build"; exit 1; }
  seed "$t"
  mkdir -p "$work/crashes/$t"
  echo "== fuzz-$t: $seconds s"
  extra=()
  # TOMLKit (the TOML dependency) leaks a few hundred bytes per parse inside its C++ bridge: once
  # per config load, so not ours to chase here; the config target fuzzes for crashes only.
  asan="${ASAN_OPTIONS:-}"
  if [ "$t" = config ]; then extra=(-detect_leaks=0); asan="detect_leaks=0"; fi
  if ! ASAN_OPTIONS="$asan" "$bin" "$work/corpus/$t" "${extra[@]}" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$work/crashes/$t/" -print_final_stats=1 > "$work/$t.log" 2>&1; then
    status=1
    echo "fuzz-$t FOUND A CRASH: $(ls "$work/crashes/$t" | head -3) (log: $work/$t.log)"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov:" "$work/$t.log" | tail -3 || true
done
exit $status
