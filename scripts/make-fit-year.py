#!/usr/bin/env python3
"""Writes a year of bike-computer rides as FIT activity files, for `make bench`.

Usage: make-fit-year.py OUTDIR [--rides N] [--seconds S]

Each ride (default 100 of 3,600 s: two a week) starts at 07:00 UTC on its own day from 2025-01-01, winds
around Zurich at 1 Hz with altitude, speed, heart rate, cadence, power and temperature, and ends
with a lap and a session. The files are written by fit-tool (PyPI), an encoder independent of
Trailbook's reader.
"""
import argparse
import math
import os
import random

from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.lap_message import LapMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import FileType, Manufacturer, Sport

START = 1_735_714_800_000  # 2025-01-01T07:00:00Z in ms


def ride(path, index, seconds, rng):
    t0 = START + index * 86_400_000
    builder = FitFileBuilder(auto_define=True)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.DEVELOPMENT.value
    file_id.product = 0
    file_id.serial_number = 1000 + index
    file_id.time_created = t0
    builder.add(file_id)
    lat, lon, heading, alt, distance = 47.3769, 8.5417, rng.uniform(0, 360), 410.0, 0.0
    records = []
    for s in range(seconds):
        speed = 6 + 2 * math.sin(s / 300) + rng.uniform(-0.3, 0.3)
        heading += rng.uniform(-4, 4)
        lat += speed * math.cos(math.radians(heading)) / 111_320
        lon += speed * math.sin(math.radians(heading)) / (111_320 * math.cos(math.radians(lat)))
        alt += rng.uniform(-0.4, 0.4)
        distance += speed
        r = RecordMessage()
        r.timestamp = t0 + s * 1000
        r.position_lat = lat
        r.position_long = lon
        r.altitude = alt
        r.speed = speed
        r.distance = distance
        r.heart_rate = 120 + int(20 * math.sin(s / 400))
        r.cadence = 85 + rng.randint(-5, 5)
        r.power = 190 + rng.randint(-40, 40)
        r.temperature = 15
        records.append(r)
    builder.add_all(records)
    end = t0 + (seconds - 1) * 1000
    lap = LapMessage()
    lap.timestamp = end
    lap.start_time = t0
    builder.add(lap)
    session = SessionMessage()
    session.timestamp = end
    session.start_time = t0
    session.start_position_lat = 47.3769
    session.start_position_long = 8.5417
    session.sport = Sport.CYCLING
    session.total_distance = distance
    session.total_timer_time = seconds
    builder.add(session)
    builder.build().to_file(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--rides", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=3600)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for i in range(args.rides):
        path = os.path.join(args.outdir, f"ride-{i + 1:03d}.fit")
        # Each ride from its own seed, so a file written before is the same file.
        if not os.path.exists(path):
            ride(path, i, args.seconds, random.Random(i))


if __name__ == "__main__":
    main()
