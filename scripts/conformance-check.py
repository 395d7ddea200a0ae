#!/usr/bin/env python3
"""Runs the gpsd conformance corpus against `trailbook decode` and fails below the thresholds.

usage: scripts/conformance-check.py SHARED_CONFORMANCE_DIR TRAILBOOK_BINARY

The thresholds are the figures measured when the decoder landed, so a change that makes the
decoder worse fails `make test`. docs/CONFORMANCE.md explains the epochs that differ on purpose.
"""
import json, subprocess, sys

THRESHOLDS = {
    "coverage_pct": 99.9,
    "position_1e7_pct": 99.5,
    "position_1e5_pct": 99.9,
    "altitude_pct": 99.7,
    "speed_pct": 99.9,
    "track_pct": 99.9,
    "date_pct": 99.9,
}

corpus, binary = sys.argv[1], sys.argv[2]
p = subprocess.run([sys.executable, f"{corpus}/compare_fixes.py", "--dir", f"{corpus}/gpsd",
                    "--decoder", f"{binary} decode --format csv {{log}}", "--json", "--verbose"],
                   capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f"compare_fixes.py failed: {p.stderr.strip()}")
lines = p.stdout.rstrip().splitlines()
result = json.loads(lines[-1])
print("\n".join(lines[:-1]))
failures = [f"{k} {result[k]} < {v}" for k, v in THRESHOLDS.items() if result[k] < v]
if result["nonzero_exit"] or result["bad_header"]:
    failures.append(f"{result['nonzero_exit']} logs exited non-zero, {result['bad_header']} bad headers")
summary = ", ".join(f"{k} {result[k]}" for k in ["files", "expected_fixes"] + list(THRESHOLDS) + ["extra_fixes"])
print(f"conformance: {summary}")
if failures:
    print("conformance: FAILED: " + "; ".join(failures))
    print("1 failed, 0 passed")
    sys.exit(1)
print("conformance: 1 passed, 0 failed")
