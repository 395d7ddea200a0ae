#!/bin/sh
# A throwaway PostgreSQL cluster for benchmarks and trying things out (the tests start their own):
#   scripts/pg-cluster.sh start DIR [PORT]   initdb in DIR (when new), start on 127.0.0.1:PORT
#                                            (default 54329), print the URL of database `trailbook`
#   scripts/pg-cluster.sh stop DIR           stop it (DIR stays; rm -rf DIR removes it)
# Trust authentication for the user `trailbook` on loopback only; run as `nobody` when root
# (PostgreSQL refuses to run as root). Needs Debian's `postgresql` package.
set -eu
command=${1:-}; dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [PORT]" >&2; exit 64; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL's server is not installed: apt-get install postgresql" >&2; exit 69; }
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }
case $command in
start)
    port=${3:-54329}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)   # the server runs in its data folder: the socket folder must be absolute
    if [ ! -d "$dir/data" ]; then
        if [ "$(id -u)" = 0 ]; then chown nobody "$dir"; fi
        as_server "$bin/initdb" -D "$dir/data" -U trailbook --auth=trust -E UTF8 --no-sync >/dev/null
    fi
    as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c max_connections=300 -c max_wal_size=4GB" start >/dev/null
    psql -X -q -h 127.0.0.1 -p "$port" -U trailbook -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'trailbook'" | grep -q 1 ||
        psql -X -q -h 127.0.0.1 -p "$port" -U trailbook -d postgres -c "CREATE DATABASE trailbook"
    echo "postgresql://trailbook@127.0.0.1:$port/trailbook"
    ;;
stop) as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null ;;
*) echo "usage: $0 start|stop DIR [PORT]" >&2; exit 64 ;;
esac
