#!/usr/bin/env python3
"""What one point costs the sharing server from HTTP body to commit (make bench).

Starts `trailbook serve` on 127.0.0.1 with a new SQLite store, one account and one device, and
posts POINTS OsmAnd points one after the other on one keep-alive connection (each reply comes
once the point is stored); prints the mean, p50 and p99 time per point and the server's CPU per
point. Usage: bench-point-cost.py BINARY [--points N]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def cli(binary, args, stdin=None):
    r = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"trailbook {' '.join(args)} failed: {r.stderr}")
    return r.stdout


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--points", type=int, default=2000)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="trailbook-point-cost-")
    store = os.path.join(work, "store.sqlite")
    cli(a.binary, ["user", "add", "ana", "--password-stdin", "--store", store], stdin="a long enough password\n")
    token = json.loads(cli(a.binary, ["device", "add", "phone", "--user", "ana", "--store", store, "--json"]))["token"]
    log = open(os.path.join(work, "serve.log"), "w")
    server = subprocess.Popen([a.binary, "serve", "--listen", "127.0.0.1:0", "--store", store], stderr=log)
    try:
        port = None
        for _ in range(600):
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", open(log.name).read())
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.05)
        if port is None:
            sys.exit("trailbook serve did not start: " + open(log.name).read())
        conn = http.client.HTTPConnection("127.0.0.1", port)
        base = 1_781_420_000_000
        times = []
        cpu_before = None
        for i in range(a.points + 50):
            if i == 50:
                cpu_before = cpu_seconds(server.pid)  # after a warm-up of 50 points
            lat, lon = 47.37 + i * 1e-5, 8.54 + i * 1e-5
            path = f"/osmand?id={token}&timestamp={base + i * 1000}&lat={lat:.6f}&lon={lon:.6f}&speed=5&accuracy=5"
            t = time.perf_counter()
            conn.request("POST", path)
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                sys.exit(f"point {i} refused: {r.status}")
            if i >= 50:
                times.append(time.perf_counter() - t)
        cpu = cpu_seconds(server.pid) - cpu_before
        times.sort()
        ms = [x * 1000 for x in times]
        print(f"point cost (SQLite, one device, {a.points} points in a row, each reply after its commit): "
              f"mean {statistics.mean(ms):.2f} ms, p50 {ms[len(ms) // 2]:.2f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms; "
              f"server CPU {cpu * 1000 / a.points:.2f} ms a point")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
