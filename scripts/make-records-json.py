#!/usr/bin/env python3
"""Writes a Google Takeout Records.json of about SIZE bytes for `make bench`: a person's days of walks
and rides between home and other places, a location every 10-60 s while moving and every few minutes
while still, laid out as Takeout writes it (two-space indents, `timestampMs` as a string, an `activity`
list on about one location in ten). Usage: make-records-json.py SIZE_MB OUT [--zip OUT.zip]"""
import math, random, sys, zipfile

def main():
    size = int(sys.argv[1]) * 1_000_000
    out = sys.argv[2]
    rnd = random.Random(40)
    t = 1_420_070_400_000  # 2015-01-01T00:00:00Z
    home = (47.3769, 8.5417)
    lat, lon = home
    written = 0
    points = 0
    with open(out, "w") as f:
        f.write('{\n  "locations": [')
        first = True
        while written < size:
            # Still for a while, then a trip to a place within 8 km and back.
            for _ in range(rnd.randint(5, 40)):
                t += rnd.randint(120, 600) * 1000
                written += emit(f, first, rnd, t, lat, lon, rnd.choice((12, 16, 20, 25)), None)
                first = False
                points += 1
            bearing = rnd.uniform(0, 2 * math.pi)
            distance = rnd.uniform(500, 8000)
            speed = rnd.choice((1.4, 4.5, 11.0))
            steps = max(2, int(distance / speed / 20))
            for k in range(steps):
                t += rnd.randint(10, 30) * 1000
                d = distance * (k + 1) / steps
                p = (home[0] + d * math.cos(bearing) / 111_320,
                     home[1] + d * math.sin(bearing) / (111_320 * math.cos(math.radians(home[0]))))
                written += emit(f, first, rnd, t, p[0], p[1], rnd.choice((3, 4, 5, 8)), speed)
                points += 1
            lat, lon = p
            if rnd.random() < 0.5:
                lat, lon = home
        f.write("]\n}\n")
    print(f"{out}: {points} locations, {written} bytes", file=sys.stderr)
    if len(sys.argv) > 4 and sys.argv[3] == "--zip":
        # As google-takeout-to-sqlite expects it, stored without compression.
        with zipfile.ZipFile(sys.argv[4], "w", zipfile.ZIP_STORED, allowZip64=True) as z:
            z.write(out, "Takeout/Location History/Location History.json")

def emit(f, first, rnd, t, lat, lon, accuracy, speed):
    parts = [f'    "timestampMs": "{t}"',
             f'    "latitudeE7": {round(lat * 1e7)}',
             f'    "longitudeE7": {round(lon * 1e7)}',
             f'    "accuracy": {accuracy}']
    if speed is not None:
        parts.append(f'    "velocity": {round(speed)}')
        parts.append(f'    "heading": {rnd.randint(0, 359)}')
        parts.append(f'    "altitude": {rnd.randint(400, 460)}')
        parts.append('    "verticalAccuracy": 3')
    if rnd.random() < 0.1:
        kind = "STILL" if speed is None else ("ON_FOOT" if speed < 2 else "ON_BICYCLE" if speed < 6 else "IN_VEHICLE")
        parts.append('    "activity": [{\n      "timestampMs": "%d",\n      "activity": [{\n        "type": "%s",\n'
                     '        "confidence": %d\n      }]\n    }]' % (t + 1500, kind, rnd.randint(40, 100)))
    parts.append('    "source": "WIFI"' if speed is None else '    "source": "GPS"')
    parts.append('    "deviceTag": -1529438761')
    text = ("" if first else ", ") + "{\n" + ",\n".join(parts) + "\n  }"
    f.write(text)
    return len(text)

main()
