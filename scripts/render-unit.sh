#!/usr/bin/env bash
# render-unit.sh BINDIR DOCDIR OUT [UNIT]: a systemd unit of udev/ with its paths filled in (for make install and
# tests); UNIT is trailbook-record@.service (the default) or trailbook-serve.service.
set -euo pipefail
sed -e "s|@BINDIR@|$1|g" -e "s|@DOCDIR@|$2|g" "$(dirname "$0")/../udev/${4:-trailbook-record@.service}.in" > "$3"
