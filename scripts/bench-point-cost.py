#!/usr/bin/env python3
"""What one point costs the sharing server from HTTP body to commit (make bench).

Starts `trailbook serve` on 127.0.0.1 with a new SQLite store, one account and one device, and
posts POINTS OsmAnd points one after the other on one keep-alive connection (each reply comes
once the point is stored); prints the mean, p50 and p99 time per point and the server's CPU per
point; then the same with every tenth point sent five points late (older than the device's
newest, as a phone's backlog comes), and how many points of each run the store lacks after.
Then the in-order run again while API clients (another account, Basic authentication with
its password on every request, as a script or an app without a session does) ask for their
friends ten times a second each: the phone's points/s and p99 next to the run without them.
Usage: bench-point-cost.py BINARY [--points N] [--api-clients N]
"""
import argparse
import base64
import http.client
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def cli(binary, args, stdin=None):
    r = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"trailbook {' '.join(args)} failed: {r.stderr}")
    return r.stdout


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post_point(conn, token, i, base):
    """Posts point i of a device (OsmAnd protocol) and returns the seconds until its reply."""
    lat, lon = 47.37 + i * 1e-5, 8.54 + i * 1e-5
    path = f"/osmand?id={token}&timestamp={(base + i * 1000) // 1000}&lat={lat:.6f}&lon={lon:.6f}&speed=5&accuracy=5"
    t = time.perf_counter()
    conn.request("POST", path)
    r = conn.getresponse()
    r.read()
    if r.status != 200:
        sys.exit(f"point {i} refused: {r.status}")
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--points", type=int, default=2000)
    p.add_argument("--api-clients", type=int, default=2)
    a = p.parse_args()
    if not (1 <= a.points <= 100_000 and 0 <= a.api_clients <= 8):
        sys.exit("points 1-100000, api-clients 0-8: the load stays bounded")
    work = tempfile.mkdtemp(prefix="trailbook-point-cost-")
    store = os.path.join(work, "store.sqlite")
    cli(a.binary, ["user", "add", "ana", "--password-stdin", "--store", store], stdin="a long enough password\n")
    cli(a.binary, ["user", "add", "bo", "--password-stdin", "--store", store], stdin="correct horse battery staple\n")
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
        n = a.points + 50
        # In time order, then with every tenth point held back and sent five points later
        # (older than the device's newest: a phone's backlog), each on a device of its own.
        runs = [("in order", list(range(n)))]
        late = []
        held = []
        for i in range(n):
            if i >= 50 and i % 10 == 5:
                held.append((i + 5, i))
            else:
                late.append(i)
            while held and held[0][0] <= i:
                late.append(held.pop(0)[1])
        late += [i for _, i in held]
        runs.append(("10% late", late))
        # The two devices take turns, request by request, so that both see the same machine.
        devices = []
        for name, order in runs:
            device = "phone-" + name.replace(" ", "-").replace("%", "")
            token = json.loads(cli(a.binary, ["device", "add", device, "--user", "ana", "--store", store, "--json"]))["token"]
            devices.append((name, device, token, order, []))
        cpu_before = None
        for k in range(n):
            if k == 50:
                cpu_before = cpu_seconds(server.pid)  # after a warm-up of 50 points each
            for name, device, token, order, times in devices:
                took = post_point(conn, token, order[k], base)
                if k >= 50:
                    times.append(took)
        cpu_seconds_total = cpu_seconds(server.pid) - cpu_before
        results = []
        for name, device, token, order, times in devices:
            times.sort()
            ms = [x * 1000 for x in times]
            late_count = sum(1 for k in range(1, len(order)) if order[k] < max(order[:k]))
            results.append((name, device, statistics.mean(ms), ms, late_count))
        cpu = cpu_seconds_total
        signed_in = with_api_clients(a, store, port, base, n) if a.api_clients else None
        server.terminate()
        server.wait()
        counts = dict(sqlite3.connect(store).execute(
            "select d.name, count(*) from point p join device d on d.id = (p.key >> 43) group by d.name").fetchall())
        for name, device, mean, ms, late_count in results:
            lost = n - counts.get(device, 0)
            print(f"point cost (SQLite, {a.points} points in a row, {name}: {late_count} older than the "
                  f"device's newest; each reply after its commit): mean {mean:.2f} ms ({1000 / mean:.0f} points/s), "
                  f"p50 {ms[len(ms) // 2]:.2f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms; {lost} of {n} lost")
        print(f"server CPU {cpu * 1000 / (2 * a.points):.2f} ms a point (both devices)")
        ratio = results[0][2] / results[1][2]
        print(f"late points: {ratio * 100:.0f}% of the in-order points/s (target >= 90%)")
        if signed_in:
            mean, ms, requests, seconds = signed_in
            lost = n - counts.get("phone-signed-in", 0)
            print(f"with {a.api_clients} API clients signing in with their password (GET /api/friends, "
                  f"{requests} requests, {requests / seconds:.1f}/s): mean {mean:.2f} ms ({1000 / mean:.0f} points/s), "
                  f"p50 {ms[len(ms) // 2]:.2f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms; {lost} of {n} lost")
            print(f"signed-in API clients: {results[0][2] / mean * 100:.0f}% of the points/s without them "
                  f"(target >= 80%), p99 {ms[int(len(ms) * 0.99)]:.2f} ms (target < 50 ms)")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


def with_api_clients(a, store, port, base, n):
    """The in-order run on a new device while API clients sign in on every request; returns the
    phone's mean ms, sorted ms, the API requests answered and the seconds they took."""
    token = json.loads(cli(a.binary, ["device", "add", "phone-signed-in", "--user", "ana", "--store", store,
                                      "--json"]))["token"]
    auth = "Basic " + base64.b64encode(b"bo:correct horse battery staple").decode()
    stop = threading.Event()
    answered = []

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port)
        while not stop.is_set():
            conn.request("GET", "/api/friends", headers={"Authorization": auth})
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                sys.exit(f"the API client was answered {r.status}")
            answered.append(1)
            time.sleep(0.1)

    clients = [threading.Thread(target=client, daemon=True) for _ in range(a.api_clients)]
    began = time.perf_counter()
    for c in clients:
        c.start()
    time.sleep(1)  # the clients are signing in before the phone starts
    conn = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(n):
        took = post_point(conn, token, i, base)
        if i >= 50:
            times.append(took)
    stop.set()
    for c in clients:
        c.join(10)
    ms = sorted(x * 1000 for x in times)
    return statistics.mean(ms), ms, len(answered), time.perf_counter() - began


if __name__ == "__main__":
    main()
