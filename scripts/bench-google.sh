#!/usr/bin/env bash
# make bench (and alone: bash scripts/bench-google.sh [SIZE_MB]): import of a generated Google
# Takeout Records.json of SIZE_MB (default 1000) into a new store, one run under /usr/bin/time
# (wall time, points/s, peak RSS), side by side with google-takeout-to-sqlite (PyPI, in a venv
# under bench-out) loading the same file from a Takeout zip, as it requires; then the same file
# written newest first (sorted through a temporary file).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
out=bench-out
mkdir -p "$out"
bin=.build/release/trailbook
mb=${1:-1000}
json="$out/Records-$mb.json"
zip="$out/takeout-$mb.zip"
if [ ! -s "$zip" ]; then
  echo "Generating a $mb MB Records.json..."
  python3 scripts/make-records-json.py "$mb" "$json" --zip "$zip"
fi
echo "Input: $json, $(stat -c %s "$json") bytes"
rm -f "$out/google.sqlite" "$out/google.sqlite-wal" "$out/google.sqlite-shm"
/usr/bin/time -f "%e %M" -o "$out/google.time" "$bin" import --store "$out/google.sqlite" --json "$json" \
  > "$out/google.json"
# The same history written newest first: read twice, sorted through a temporary file.
reversed="$out/Records-$mb-reversed.json"
if [ ! -s "$reversed" ]; then
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["locations"].reverse(); json.dump(d, open(sys.argv[2], "w"), indent=2)' \
    "$json" "$reversed"
fi
rm -f "$out/google-rev.sqlite" "$out/google-rev.sqlite-wal" "$out/google-rev.sqlite-shm"
/usr/bin/time -f "%e %M" -o "$out/google-rev.time" "$bin" import --store "$out/google-rev.sqlite" --json "$reversed" \
  > "$out/google-rev.json"
venv="$out/venv"
if [ ! -x "$venv/bin/google-takeout-to-sqlite" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q google-takeout-to-sqlite
fi
rm -f "$out/peer.db"
/usr/bin/time -f "%e %M" -o "$out/peer.time" "$venv/bin/google-takeout-to-sqlite" location-history \
  "$out/peer.db" "$zip" > /dev/null
python3 - "$out/google.time" "$out/google.json" "$out/peer.time" "$out/peer.db" <<'PY'
import json, sqlite3, sys
secs, kb = map(float, open(sys.argv[1]).read().split()[-2:])
summary = json.load(open(sys.argv[2]))
read, stored = summary["fixes_read"], summary["stored"]
psecs, pkb = map(float, open(sys.argv[3]).read().split()[-2:])
prows = sqlite3.connect(sys.argv[4]).execute("select count(*) from location_history").fetchone()[0]
print(f"trailbook import: {secs:.1f} s, {read / secs:,.0f} points/s read ({stored:,} stored of {read:,}), "
      f"peak RSS {kb / 1024:.0f} MB")
print(f"google-takeout-to-sqlite: {psecs:.1f} s, {prows / psecs:,.0f} points/s ({prows:,} rows), "
      f"peak RSS {pkb / 1024:.0f} MB")
print(f"ratio: trailbook is {psecs / secs:.1f}x faster, with {kb / pkb:.3f} of the peer's peak memory")
PY
python3 - "$out/google-rev.time" "$out/google-rev.json" <<'PY'
import json, sys
secs, kb = map(float, open(sys.argv[1]).read().split()[-2:])
summary = json.load(open(sys.argv[2]))
print(f"trailbook import, newest first: {secs:.1f} s, {summary['fixes_read'] / secs:,.0f} points/s read "
      f"({summary['stored']:,} stored), peak RSS {kb / 1024:.0f} MB")
PY
