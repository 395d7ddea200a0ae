# Sourced by the bench scripts that time the server's pages (bench-web.sh, bench-timeline.sh).
#
# serve_setup NAME STORE PORT: the store's own user `me` gets the bench's password; sets
# $password, $config (bench-out/NAME.toml: Zurich's time, no base map), $base, $jar (the session's
# cookie file), an empty view cache (XDG_CACHE_HOME=bench-out/NAME-cache), and a trap that stops
# the server ($server) when the script ends.
serve_setup() {
  local name=$1 store=$2 port=$3
  password="a passphrase for the bench only"
  echo "$password" | "$bin" user passwd me --password-stdin --store "$store" > /dev/null
  config="$out/$name.toml"
  printf '[time]\nzone = "Europe/Zurich"\n[maps]\ntiles = "none"\n' > "$config"
  base="http://127.0.0.1:$port"
  jar="$out/$name.cookies"
  export XDG_CACHE_HOME="$out/$name-cache"
  rm -rf "$XDG_CACHE_HOME"
  server=
  trap 'kill $server 2> /dev/null || true' EXIT
}

# serve_signed_in STORE PORT LOG: starts `trailbook serve` ($bin) on 127.0.0.1:PORT (its pid in
# $server, its log in LOG), waits until it answers, and signs `me` in (the cookie in $jar).
serve_signed_in() {
  local store=$1 port=$2 log=$3 token
  : > "$log"
  "$bin" serve --store "$store" --listen "127.0.0.1:$port" --config "$config" > "$log" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -s -o /dev/null "$base/" && break; sleep 0.2; done
  rm -f "$jar"
  token=$(curl -s -c "$jar" -b "$jar" "$base/" | grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//;s/"//')
  curl -s -c "$jar" -b "$jar" -o /dev/null --data-urlencode "csrf=$token" --data-urlencode "user=me" \
    --data-urlencode "password=$password" "$base/login"
}
