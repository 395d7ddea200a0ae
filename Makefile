# Trailbook: `make demo` and `make test` do all set-up on a fresh Debian/Ubuntu machine
# that has the Swift toolchain. System packages come from apt (sudo when not root).

SWIFT        ?= swift
SHARED       ?= ../shared
CONFORMANCE  := $(SHARED)/conformance/gpsd
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# What each job needs from apt.
PKGS_BUILD   := python3 pkg-config libgps-dev libsqlite3-dev zlib1g-dev libcurl4-openssl-dev libtcd-dev xtide-data libqrencode-dev
PKGS_TEST    := sqlite3 gpsd gpsd-clients gpsbabel python3-pil libxml2-utils chromium time curl postgresql mosquitto mosquitto-clients libnotify-bin zbar-tools
PKGS_BENCH   := gpsd-clients hyperfine gpsbabel time
PKGS_FUZZ    := python3-venv

.PHONY: all build release demo test conformance bench fuzz lint install deps-build deps-test deps-bench clean

all: build

# Installs the named packages that are missing (apt-get update once, only if needed).
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps-build:
	$(call apt_install,$(PKGS_BUILD))
	@command -v $(SWIFT) >/dev/null || { echo "Swift is not on PATH: install the Swift toolchain (swift.org) and retry." >&2; exit 1; }

deps-test: deps-build
	$(call apt_install,$(PKGS_TEST))

deps-bench: deps-build
	$(call apt_install,$(PKGS_BENCH))

build: deps-build
	$(SWIFT) build

# Release builds link the Swift runtime and Foundation into the binary, at a fixed address
# (no PIE): no symbol lookups or relocations at start-up, so `trailbook` starts in ~13 ms
# instead of ~20 and `record` stays under 30 MB resident (docs/BENCHMARKS.md).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie

release: deps-build
	$(SWIFT) build $(RELEASE_FLAGS)

# The demo runs the debug binary `make test` builds too: it builds in about a third of the release build's time
# (docs/BENCHMARKS.md, "make demo"), and the demo's samples take it a second or two. `make release` (and
# `make install`) build the optimised binary.
DEMO_BIN := .build/debug/trailbook

demo: build
	@echo "== trailbook decode Samples/ride.nmea (the start, then 10 minutes in):"
	@$(DEMO_BIN) decode --stats Samples/ride.nmea > .build/demo-ride.csv
	@head -3 .build/demo-ride.csv | cut -d, -f1-9
	@echo "   ..."
	@sed -n '601,603p' .build/demo-ride.csv | cut -d, -f1-9
	@echo "   ... $$(($$(wc -l < .build/demo-ride.csv) - 1)) epochs in .build/demo-ride.csv"
	@echo
	@echo "== trailbook watch --replay Samples/ride.nmea --realtime --speed 20 (what a live receiver looks like):"
	@$(DEMO_BIN) watch --replay Samples/ride.nmea --realtime --speed 20 --count 5 2>/dev/null | tail -n +1
	@echo
	@echo "== trailbook import: the sample ride and a simulated ride the next day, into a demo store:"
	@rm -rf .build/demo-store.sqlite .build/demo-store.sqlite-wal .build/demo-store.sqlite-shm .build/demo-store-media .build/demo-reports
	@$(DEMO_BIN) simulate --duration 2400 --seed 9 --start 2026-06-15T07:10:00 -o .build/demo-ride-2.nmea
	@$(DEMO_BIN) import --store .build/demo-store.sqlite Samples/ride.nmea .build/demo-ride-2.nmea
	@$(DEMO_BIN) rides --store .build/demo-store.sqlite --time-zone Europe/Zurich
	@echo
	@echo "== a diary entry: a note at 08:45 local time and the day's summary"
	@$(DEMO_BIN) note add --store .build/demo-store.sqlite --at "2026-06-14 08:45" --time-zone Europe/Zurich --text "Coffee by the lake, then the long way home."
	@$(DEMO_BIN) day 2026-06-14 --store .build/demo-store.sqlite --summary "Morning loop round the lake."
	@echo
	@echo "== trailbook summary --day 2026-06-14 and --day 2026-06-15:"
	@$(DEMO_BIN) summary --store .build/demo-store.sqlite --day 2026-06-14 --time-zone Europe/Zurich
	@$(DEMO_BIN) summary --store .build/demo-store.sqlite --day 2026-06-15 --time-zone Europe/Zurich
	@echo
	@echo "== trailbook report day and report overlay (open them in a browser; they load nothing from the network):"
	@mkdir -p .build/demo-reports
	@$(DEMO_BIN) report day 2026-06-14 --store .build/demo-store.sqlite --time-zone Europe/Zurich -o .build/demo-reports/2026-06-14.html
	@echo "   ...and with a base map: made-up grid tiles from an MBTiles file (no internet needed):"
	@python3 Samples/make-demo-tiles.py .build/demo-tiles.mbtiles 47.30 8.45 47.45 8.65 11 17
	@$(DEMO_BIN) report day 2026-06-14 --store .build/demo-store.sqlite --time-zone Europe/Zurich --tiles mbtiles:.build/demo-tiles.mbtiles --attribution "Trailbook demo grid (not a real map)" -o .build/demo-reports/2026-06-14-map.html
	@echo "   For a real map: --tiles osm (OpenStreetMap), or --tiles 'https://tile.example.org/{z}/{x}/{y}.png' --attribution '...'"
	@echo "   (your tile provider's URL and credit; mind its usage policy), or maps.tiles in the config (docs/CONFIG.md)."
	@$(DEMO_BIN) report overlay --store .build/demo-store.sqlite --time-zone Europe/Zurich --from 2026-06-14 --to 2026-06-15 -o .build/demo-reports/overlay
	@$(DEMO_BIN) export --store .build/demo-store.sqlite --day 2026-06-14 --time-zone Europe/Zurich --format gpx -o .build/demo-reports/2026-06-14.gpx && echo .build/demo-reports/2026-06-14.gpx
	@echo
	@echo "Next: plug in a receiver and run $(DEMO_BIN) devices, then $(DEMO_BIN) watch"

# The debug binary the tests use decodes the corpus too: a release build would double the time of
# a clean `make test` (CI) for the same decoder; `make conformance` runs it on the release binary.
# Passwords are hashed at bcrypt cost 4 in the tests, not 12 (`$TRAILBOOK_PASSWORD_COST`,
# docs/COMMANDS.md): at 12, bcrypt was 16% of the CPU of a run (docs/BENCHMARKS.md).
# The command tests run each command in the test process (`Trailbook.main` on a console of pipes), as
# async tests; Swift Testing would start every async test at once, so it runs TEST_WIDTH at a time (the
# timing-bound tests, a server's outage or a recorder's commits, need the cores they wait on).
TEST_WIDTH ?= 6
test: deps-test
	$(SWIFT) build
	TRAILBOOK_PASSWORD_COST=4 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test
	@$(call run_conformance,.build/debug/trailbook)

# The real-receiver corpus in ../shared (present in CI); fails below the recorded thresholds.
define run_conformance
	if [ -d "$(CONFORMANCE)" ]; then \
	  python3 scripts/conformance-check.py "$(SHARED)/conformance" $(1); \
	else \
	  echo "NOTE: $(CONFORMANCE) not found: the gpsd conformance corpus was not run (CI runs it)."; \
	fi
endef

conformance: release
	@$(call run_conformance,.build/release/trailbook)

bench: release deps-bench
	TRAILBOOK_BENCH=1 $(SWIFT) build $(RELEASE_FLAGS) --product bench-pg-statements
	bash scripts/bench.sh

# libFuzzer targets (Sources/Fuzz), each for FUZZ_SECONDS (default 60); crashes in .build/fuzz/crashes.
# Then schemathesis against a running server and its OpenAPI document (API_FUZZ_SECONDS per run).
fuzz: deps-test
	$(call apt_install,$(PKGS_FUZZ))
	bash scripts/fuzz.sh
	bash scripts/fuzz-api.sh

# Installs the binary (stripped of its debug information), the udev rules and the systemd units (the recorder's,
# started by udev, and trailbook-serve.service; DESTDIR for staging, PREFIX for the binary).
PREFIX  ?= /usr/local
DESTDIR ?=
install: release
	install -D -s -m 0755 .build/release/trailbook $(DESTDIR)$(PREFIX)/bin/trailbook
	@echo "Installed $(DESTDIR)$(PREFIX)/bin/trailbook, stripped: $$(du -h $(DESTDIR)$(PREFIX)/bin/trailbook | cut -f1)"
	install -D -m 0644 udev/60-trailbook.rules $(DESTDIR)/etc/udev/rules.d/60-trailbook.rules
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/trailbook/README.md
	mkdir -p $(DESTDIR)/etc/systemd/system
	scripts/render-unit.sh $(PREFIX)/bin $(PREFIX)/share/doc/trailbook $(DESTDIR)/etc/systemd/system/trailbook-record@.service
	scripts/render-unit.sh $(PREFIX)/bin $(PREFIX)/share/doc/trailbook $(DESTDIR)/etc/systemd/system/trailbook-serve.service trailbook-serve.service
	@if [ -z "$(DESTDIR)" ]; then \
	  udevadm control --reload 2>/dev/null || true; systemctl daemon-reload 2>/dev/null || true; \
	  echo "Installed. Plug a receiver in: trailbook-record@<device>.service starts; journalctl -u 'trailbook-record@*' shows it."; \
	  echo "The server: sudo systemctl enable --now trailbook-serve (127.0.0.1:8750); its first account: README, 'The server as a service'."; \
	fi

# Style check with the toolchain's swift-format (.swift-format).
lint: deps-build
	$(SWIFT) format lint --strict -r Sources Tests

clean:
	rm -rf .build
