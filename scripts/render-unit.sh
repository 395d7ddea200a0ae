#!/usr/bin/env bash
# render-unit.sh BINDIR DOCDIR OUT: the systemd unit with its paths filled in (for make install and tests).
set -euo pipefail
sed -e "s|@BINDIR@|$1|g" -e "s|@DOCDIR@|$2|g" "$(dirname "$0")/../udev/trailbook-record@.service.in" > "$3"
