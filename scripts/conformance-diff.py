#!/usr/bin/env python3
"""List epochs where `trailbook decode` differs from gpsd's expected fixes in one field.

usage: scripts/conformance-diff.py FIELD [NAME...]   (FIELD: pos, alt, speed, track, date, missing)
Reads ../shared/conformance/gpsd; a developer's tool for investigating conformance results.
"""
import csv, io, os, subprocess, sys

corpus = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "conformance", "gpsd")
binary = os.path.join(os.path.dirname(__file__), "..", ".build", "release", "trailbook")
field = sys.argv[1]
names = sys.argv[2:] or sorted(f[:-4] for f in os.listdir(corpus) if f.endswith(".log"))

def num(x):
    return float(x) if x not in (None, "") else None

for name in names:
    exp = list(csv.DictReader(open(os.path.join(corpus, name + ".expected.csv"))))
    out = subprocess.run([binary, "decode", os.path.join(corpus, name + ".log")], capture_output=True, text=True).stdout
    act = {}
    for r in csv.DictReader(io.StringIO(out)):
        if r["lat"]:
            act[r["time"].split("T")[-1].rstrip("Z")] = r
    for e in exp:
        if not e["tod"] or int(e["mode"] or 0) < 2:
            continue
        a = act.get(e["tod"])
        if a is None:
            if field == "missing":
                print(name, e["tod"], "missing", e["sentences"])
            continue
        pairs = {"pos": [("lat", "lat"), ("lon", "lon")], "alt": [("alt_msl_m", "alt")],
                 "speed": [("speed_mps", "speed")], "track": [("track_deg", "track")]}.get(field, [])
        for ek, ak in pairs:
            src = {"alt": "alt_src", "speed": "spd_src", "track": "trk_src"}.get(field)
            if src and e[src] != "nmea":
                continue
            ev, av = num(e[ek]), num(a[ak])
            tol = 1.01e-7 if field == "pos" else 1.01e-3
            if ev is not None and (av is None or abs(ev - av) > tol):
                print(name, e["tod"], ek, "expected", ev, "got", av, e["sentences"])
        if field == "date" and e["time"] and a["time"].split("T")[0] != e["time"].split("T")[0]:
            print(name, e["tod"], "expected", e["time"], "got", a["time"])
