#!/usr/bin/env python3
"""A PostgreSQL store growing to many points: do a device's day and the latest positions stay flat?

Fills the `position` table of an empty Trailbook database in steps (500 devices, a point every
60 s each, later times appended as ingestion appends them; generated inside the server with
generate_series), and after each step times, 30 runs each, median and p95:
  - day:      one device's points of its newest full day (1440 points at every size), the query
              `points --day --device-name` runs;
  - latest:   the newest point of each of the 500 devices from `position` (the index read
              backwards, as /api/friends reads recent points);
  - live:     the `latest_position` table the live view reads (refreshed as ingestion does);
  - cli day:  `trailbook points --day D --device-name phone500` end to end (process start included).
Prints a CSV: points_m, fill_s, table_gb, index_gb, day_ms p50/p95, latest_ms p50/p95, live_ms p50/p95,
cli_day_ms p50.

usage: bench-pg-growth.py BINARY URL [--steps 1,10,100] (millions of points, cumulative)
"""

import argparse
import calendar
import statistics
import subprocess
import sys
import time

DEVICES = 500
START_MS = 1767225600000  # 2026-01-01T00:00:00Z
SPACING_MS = 60_000


def psql(url, sql, capture=True):
    r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                       capture_output=capture, text=True)
    if r.returncode != 0:
        sys.exit(f"psql failed: {r.stderr.strip()}\n{sql[:300]}")
    return r.stdout.strip() if capture else ""


def timed(url, sql, runs=30):
    """Median and p95 of `sql` in ms, run `runs` times in one session (psql's \\timing)."""
    script = "\\timing on\n" + "\n".join([sql + ";"] * runs) + "\n"
    r = subprocess.run(["psql", "-X", "-q", "-d", url, "-o", "/dev/null"], input=script, capture_output=True,
                       text=True)
    times = [float(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("Time:")]
    if len(times) != runs:
        sys.exit(f"timing failed: {r.stderr.strip()}")
    times = sorted(times[3:])  # the first runs warm the cache
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def partition(month):
    year, m = divmod(month, 12)
    start = calendar.timegm((year, m + 1, 1, 0, 0, 0)) * 1000
    ny, nm = divmod(month + 1, 12)
    end = calendar.timegm((ny, nm + 1, 1, 0, 0, 0)) * 1000
    return f"position_y{year:04d}m{m + 1:02d}", start, end


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("url")
    ap.add_argument("--steps", default="1,10,100")
    a = ap.parse_args()
    steps = [int(float(s) * 1_000_000) for s in a.steps.split(",")]
    if any(s > 200_000_000 for s in steps) or steps != sorted(steps):
        sys.exit("steps: increasing, at most 200 (million points)")
    # The store's schema, made by Trailbook itself; then the devices of the local user.
    r = subprocess.run([a.binary, "day", "2026-01-01", "--summary", "growth bench", "--store", a.url],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"trailbook could not make the store: {r.stderr.strip()}")
    psql(a.url, f"""INSERT INTO account (name, created_ms) VALUES ('me', 0) ON CONFLICT DO NOTHING;
        INSERT INTO device (user_id, name, created_ms)
        SELECT (SELECT id FROM account WHERE name = 'me'), 'phone' || d, 0 FROM generate_series(1, {DEVICES}) d""")
    first_device = int(psql(a.url, "SELECT min(id) FROM device WHERE name LIKE 'phone%'"))
    per_device_max = steps[-1] // DEVICES
    last_ms = START_MS + per_device_max * SPACING_MS
    month = 2026 * 12
    while True:
        name, start, end = partition(month)
        if start > last_ms:
            break
        psql(a.url, f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF position FOR VALUES FROM ({start}) TO ({end})")
        month += 1
    print("points_m,fill_s,table_gb,index_gb,day_ms_p50,day_ms_p95,latest_ms_p50,latest_ms_p95,"
          "live_ms_p50,live_ms_p95,cli_day_ms_p50", flush=True)
    done = 0
    for target in steps:
        t0 = time.monotonic()
        i = done // DEVICES
        while i < target // DEVICES:
            j = min(i + 5000, target // DEVICES)  # 5 million rows per statement
            psql(a.url, f"""
                INSERT INTO position (device_id, t, lat, lon, alt, speed, track, hdop, mode_sats)
                SELECT {first_device} + d - 1, {START_MS} + i * {SPACING_MS}::bigint,
                       470000000 + d * 1000 + (i % 1000) * 10, 85000000 + (i % 5000) * 20,
                       40000 + i % 100, 500, (i * 7) % 36000, 90, 3 + 4 * 9
                FROM generate_series({i}, {j - 1}) i, generate_series(1, {DEVICES}) d
                ORDER BY i, d""")
            i = j
        psql(a.url, """INSERT INTO latest_position (device_id, t, lat, lon, alt, speed, track, hdop, mode_sats)
            SELECT d.id, p.t, p.lat, p.lon, p.alt, p.speed, p.track, p.hdop, p.mode_sats FROM device d
            CROSS JOIN LATERAL (SELECT * FROM position WHERE device_id = d.id ORDER BY t DESC LIMIT 1) p
            ON CONFLICT (device_id) DO UPDATE SET t = excluded.t, lat = excluded.lat, lon = excluded.lon""")
        psql(a.url, "VACUUM ANALYZE position")
        fill = time.monotonic() - t0
        done = target
        table = int(psql(a.url, "SELECT sum(pg_table_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'position'::regclass"))
        index = int(psql(a.url, "SELECT sum(pg_indexes_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'position'::regclass"))
        # The newest day of the middle device.
        device = first_device + DEVICES // 2
        day_start = START_MS + ((target // DEVICES) * SPACING_MS // 86_400_000 - 1) * 86_400_000
        assert day_start >= START_MS, "every device has a full day at every size"
        day = timed(a.url, f"""SELECT t, lat, lon, alt, speed, track, hdop, mode_sats FROM position
            WHERE device_id = ANY(ARRAY[{device}]::bigint[]) AND t >= {day_start} AND t < {day_start + 86_400_000}
            ORDER BY t, device_id""")
        latest = timed(a.url, """SELECT p.* FROM device d CROSS JOIN LATERAL
            (SELECT t, lat, lon FROM position WHERE device_id = d.id ORDER BY t DESC LIMIT 1) p""")
        live = timed(a.url, "SELECT * FROM latest_position")
        iso = time.strftime("%Y-%m-%d", time.gmtime(day_start / 1000))
        cli = []
        for _ in range(7):
            t = time.monotonic()
            subprocess.run([a.binary, "points", "--day", iso, "--time-zone", "UTC", "--device-name",
                            f"phone{DEVICES // 2 + 1}", "--store", a.url], stdout=subprocess.DEVNULL, check=True)
            cli.append((time.monotonic() - t) * 1000)
        print(f"{target / 1e6:g},{fill:.0f},{table / 1e9:.2f},{index / 1e9:.2f},{day[0]:.2f},{day[1]:.2f},"
              f"{latest[0]:.2f},{latest[1]:.2f},{live[0]:.2f},{live[1]:.2f},{statistics.median(cli[2:]):.1f}",
              flush=True)


main()
