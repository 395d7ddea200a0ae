#!/usr/bin/env bash
# make bench (and alone: bash scripts/bench-fit.sh [RIDES]): import of a year of bike-computer
# rides as FIT files (default 100 rides of an hour at 1 Hz, two a week, written by fit-tool from PyPI in a venv
# under bench-out) into a new store, one run under /usr/bin/time (wall time, points/s, peak RSS),
# side by side with gpsbabel's FIT reader converting the same files to GPX (TZ=UTC).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
out=bench-out
mkdir -p "$out"
bin=.build/release/trailbook
rides=${1:-100}
dir="$out/fit-$rides"
venv="$out/venv"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! "$venv/bin/python" -c "import fit_tool" 2> /dev/null; then "$venv/bin/pip" install -q fit-tool; fi
if [ "$(ls "$dir" 2> /dev/null | wc -l)" -ne "$rides" ]; then
  echo "Writing $rides FIT rides with fit-tool (those missing)..."
  "$venv/bin/python" scripts/make-fit-year.py "$dir" --rides "$rides"
fi
echo "Input: $dir, $rides files, $(du -sb "$dir" | cut -f1) bytes"
rm -f "$out/fit.sqlite" "$out/fit.sqlite-wal" "$out/fit.sqlite-shm"
/usr/bin/time -f "%e %M" -o "$out/fit.time" "$bin" import --store "$out/fit.sqlite" --json "$dir" > "$out/fit.json"
args=()
for f in "$dir"/*.fit; do args+=(-f "$f"); done
/usr/bin/time -f "%e %M" -o "$out/gpsbabel-fit.time" gpsbabel -i garmin_fit "${args[@]}" -o gpx -F "$out/fit-peer.gpx"
python3 - "$out/fit.time" "$out/fit.json" "$out/gpsbabel-fit.time" "$out/fit-peer.gpx" <<'PY'
import json, sys
secs, kb = map(float, open(sys.argv[1]).read().split()[-2:])
summary = json.load(open(sys.argv[2]))
read, stored = summary["fixes_read"], summary["stored"]
psecs, pkb = map(float, open(sys.argv[3]).read().split()[-2:])
ppoints = open(sys.argv[4]).read().count("<trkpt")
print(f"trailbook import: {secs:.1f} s, {read / secs:,.0f} points/s read ({stored:,} stored of {read:,}), "
      f"peak RSS {kb / 1024:.0f} MB")
print(f"gpsbabel -i garmin_fit -o gpx: {psecs:.1f} s, {ppoints / psecs:,.0f} points/s ({ppoints:,} points), "
      f"peak RSS {pkb / 1024:.0f} MB")
print(f"ratio: trailbook is {psecs / secs:.1f}x faster, with {kb / pkb:.2f} of the peer's peak memory")
PY
