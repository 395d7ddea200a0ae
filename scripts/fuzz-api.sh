#!/usr/bin/env bash
# make fuzz, second part: schemathesis (PyPI, in .build/fuzz/venv) against a running
# `trailbook serve`, driven by the server's own OpenAPI document (GET /api/openapi.json). Three
# runs, one per way of signing in: the JSON API with a password, Overland with a bearer device
# token, OwnTracks and GPSLogger with USER:DEVICE_TOKEN (OsmAnd's token is a query value, so its
# runs mostly see 401). Each run gets API_FUZZ_SECONDS (default 60). Exits 1 on any failure.
#
# Left out: positive_data_acceptance (a well-formed code that does not exist is refused with 422,
# by design), and for the apps' endpoints negative_data_rejection (below). Wrong passwords from the ignored_auth check trip the login limit, after which the
# API answers 429 (documented) for the rest of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${API_FUZZ_SECONDS:-60}
work=.build/fuzz/api
venv=.build/fuzz/venv
mkdir -p "$work"
if [ ! -x "$venv/bin/st" ]; then
  echo "Installing schemathesis into $venv (PyPI)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis>=4,<5'
fi
swift build --product trailbook > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
bin=.build/debug/trailbook
store=$work/store.sqlite
rm -f "$store" "$store"-*
password='correct horse battery staple'
for user in ana ben; do printf '%s\n' "$password" | "$bin" user add "$user" --password-stdin --store "$store" >/dev/null; done
token=$("$bin" device add phone --user ana --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

"$bin" serve --listen 127.0.0.1:0 --store "$store" 2> "$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "trailbook serve did not start: $(cat "$work/serve.log")" >&2; exit 1; }
# ben sees ana: a grant for the grant and track operations to find.
code=$(curl -s -u "ana:$password" -X POST -d '{"scopes":["live","motion","history"],"history_hours":24}' "$url/api/share-codes" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
curl -s -u "ben:$password" -X POST -d "{\"code\":\"$code\"}" "$url/api/share-codes/redeem" >/dev/null

status=0
run() {  # run NAME PATH-REGEX EXCLUDED-CHECKS ST-OPTIONS...
  local name=$1 paths=$2 excluded=$3
  shift 3
  echo "== schemathesis: $name ($paths, ${seconds}s)"
  # Run from the work folder: schemathesis keeps its cache (.schemathesis/) where it runs.
  (cd "$work" && "$root/$venv/bin/st" run "$url/api/openapi.json" --include-path-regex "$paths" --checks all \
    --exclude-checks "$excluded" --max-time "$seconds" --workers 2 --no-color \
    --report junit --report-junit-path "$name.xml" "$@" > "$name.log" 2>&1) || status=1
  tail -n 25 "$work/$name.log"
}
run api '^/api/' positive_data_acceptance --auth "ben:$password"
run overland '^/overland$' positive_data_acceptance -H "Authorization: Bearer $token"
# The apps' own endpoints take what the apps send and ignore what they do not read (OwnTracks'
# other message types and fields, GPSLogger's other parameters): no refusal is expected for
# those. The coverage phase is left out here: schemathesis 4.32 fails inside itself on these
# operations (a KeyError in its coverage walk), which is not the server's.
run phones '^/(pub|gpslogger|osmand)$' positive_data_acceptance,negative_data_rejection \
  --phases examples,fuzzing --auth "ana:$token"
echo "Logs and JUnit reports: $work/"
exit $status
