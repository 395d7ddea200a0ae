#!/usr/bin/env python3
"""Ingestion load on `trailbook serve`, on loopback, bounded in count and time.

DEVICES phones (OsmAnd protocol, a keep-alive connection each) post one point per second
for SECONDS seconds; a viewer who may see all of them listens on /api/live. Prints points/s,
request latency p50/p99, the live-event delay p50/p99 (post sent -> event read), the server's
peak RSS, and how many points the store holds against how many were sent (lost = sent - stored).

With --store postgresql://... the store is that (empty) database, and --processes N starts N
`serve` processes on it: the phones are spread over them and the viewer listens on the first,
so the live events of the others' phones come through the database (LISTEN/NOTIFY). It also
prints the CPU time PostgreSQL's processes spent per point while the phones posted (all of the
machine's: run one cluster).

With --saturate each phone posts its next point as soon as the last is answered (a point a
second apart in the phone's time), for SECONDS: the devices are the open connections, and
points/s is what the server takes at most.

With --connections C the phones share C keep-alive connections (phone i on connection i mod C),
each connection posting for its phones in turn: `--devices 500 --connections 50 --saturate` is
500 phones the server has never seen, their first points (the first second) included in the
latencies.

With --api-clients K, K clients of another account each ask GET /api/friends back to back, signing
in with their password on every request (HTTP Basic, as a script without a session does), while
the phones post: it also prints their answers a second and p99. Run once with and once without to
see what share of its points/s the phones keep beside them.

usage: serve-load.py BINARY [--devices 500] [--seconds 60] [--users 10] [--store URL]
                     [--processes 1] [--saturate] [--connections C] [--api-clients K] [--json]
"""

import argparse
import asyncio
import base64
import calendar
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

PASSWORD = "correct horse battery staple"
# The most points a second one saturating phone is given times for (its points are a second
# apart, all in the past).
SATURATED_MAX = 400


def cli(binary, args, stdin=None):
    r = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"trailbook {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


async def http(host, port, method, path, headers=None, body=b""):
    """One request on a new connection; returns (status, body)."""
    reader, writer = await asyncio.open_connection(host, port)
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
    for k, v in (headers or {}).items():
        head += f"{k}: {v}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    await writer.drain()
    data = await reader.read()
    writer.close()
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def basic(user):
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


async def read_response(reader):
    """Reads one HTTP/1.1 response with a Content-Length (or none) from a keep-alive connection."""
    status_line = await reader.readline()
    status = int(status_line.split(b" ", 2)[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
    if length:
        await reader.readexactly(length)
    return status


async def connection(host, port, phones, start, seconds, sent, latencies, errors, base_ms, saturate=False):
    """One keep-alive connection posting for its phones ((token, index) each) in turn: each phone's
    point of each second, at its time in that second, or (saturate) as soon as the last is answered."""
    reader, writer = await asyncio.open_connection(host, port)
    delay = start - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)
    for second in range(seconds * SATURATED_MAX if saturate else seconds):
        for token, index in phones:
            if saturate:
                if time.monotonic() >= start + seconds:
                    writer.close()
                    return
            else:
                due = start + second + (index % 1000) / 1000.0
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            ms = base_ms + second * 1000
            lat = 47.0 + index * 0.001
            lon = 8.5 + second * 0.0001  # about 7.5 m/s
            path = f"/osmand?id={token}&timestamp={ms}&lat={lat:.6f}&lon={lon:.6f}&speed=14.6&accuracy=5&batt=80"
            sent[(index, ms)] = time.monotonic()
            await ask(reader, writer, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(), latencies, errors)
    writer.close()


async def ask(reader, writer, request, latencies, errors):
    """One request on a keep-alive connection: its time to the answer, and a status not 200."""
    t = time.monotonic()
    writer.write(request)
    await writer.drain()
    status = await read_response(reader)
    latencies.append(time.monotonic() - t)
    if status != 200:
        errors.append(status)


async def api_client(host, port, user, start, stop, latencies, errors):
    """Asks for the account's friends back to back, with the password on every request."""
    reader, writer = await asyncio.open_connection(host, port)
    head = f"GET /api/friends HTTP/1.1\r\nHost: {host}\r\n"
    for k, v in basic(user).items():
        head += f"{k}: {v}\r\n"
    request = (head + "\r\n").encode()
    delay = start - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)
    while not stop.is_set():
        await ask(reader, writer, request, latencies, errors)
    writer.close()


async def watch(host, port, names, sent, delays, stop):
    reader, writer = await asyncio.open_connection(host, port)
    head = f"GET /api/live HTTP/1.1\r\nHost: {host}\r\n"
    for k, v in basic("watcher").items():
        head += f"{k}: {v}\r\n"
    writer.write(head.encode() + b"\r\n")
    await writer.drain()
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 1)
        except asyncio.TimeoutError:
            continue
        if not line:
            break
        if line.startswith(b"data: "):
            now = time.monotonic()
            doc = json.loads(line[6:])
            t = doc["time"]  # "2026-06-14T06:30:00.000Z"
            ms = calendar.timegm(time.strptime(t[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(t[20:23])
            key = (names[doc["device"]], ms)
            if key in sent:
                delays.append(now - sent[key])
    writer.close()


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def cpu_seconds(pid):
    """User and system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds():
    """User and system CPU time of every PostgreSQL process on the machine so far, ended backends
    included (they are counted in their parent's, the postmaster's, children's time)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                head, fields = f.read().rsplit(")", 1)
        except OSError:
            continue
        if head.split("(", 1)[1].startswith("postgres"):
            fields = fields.split()
            total += sum(int(fields[i]) for i in (11, 12, 13, 14))
    return total / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--devices", type=int, default=500)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--users", type=int, default=10)
    ap.add_argument("--store", help="a postgresql:// URL of an empty database (default: a new SQLite file)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--saturate", action="store_true", help="post as fast as the server answers")
    ap.add_argument("--connections", type=int, help="the connections the phones share (default: one each)")
    ap.add_argument("--api-clients", type=int, default=0, help="clients asking /api/friends with a password")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not (1 <= a.devices <= 2000 and 1 <= a.seconds <= 600 and 1 <= a.users <= a.devices):
        sys.exit("devices 1-2000, seconds 1-600, users 1-devices: the load stays bounded")
    if not 1 <= a.processes <= 8 or (a.processes > 1 and not a.store):
        sys.exit("processes 1-8, more than one only on a PostgreSQL store (--store postgresql://...)")
    connections = a.connections or a.devices
    if not (1 <= connections <= a.devices and 0 <= a.api_clients <= 16):
        sys.exit("connections 1-devices, api-clients 0-16: the load stays bounded")
    work = tempfile.mkdtemp(prefix="trailbook-load-")
    store = a.store or os.path.join(work, "s.sqlite")
    users = [f"rider{u}" for u in range(a.users)]
    clients = [f"client{k}" for k in range(a.api_clients)]
    for u in users + ["watcher"] + clients:
        cli(a.binary, ["user", "add", u, "--password-stdin", "--store", store], stdin=PASSWORD)
    tokens, names = [], {}
    for i in range(a.devices):
        name = f"phone{i}"
        out = cli(a.binary, ["device", "add", name, "--user", users[i % a.users], "--store", store, "--json"])
        tokens.append(json.loads(out)["token"])
        names[name] = i
    servers, ports, logs = [], [], []
    for n in range(a.processes):
        log = open(os.path.join(work, f"serve-{n}.log"), "w")
        logs.append(log.name)
        servers.append(subprocess.Popen([a.binary, "serve", "--listen", "127.0.0.1:0", "--store", store], stderr=log))
    try:
        for name in logs:
            port = None
            for _ in range(600):
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", open(name).read())
                if m:
                    port = int(m.group(1))
                    break
                await asyncio.sleep(0.05)
            if port is None:
                sys.exit("trailbook serve did not start: " + open(name).read())
            ports.append(port)
        port = ports[0]
        host = "127.0.0.1"
        for u in users:
            status, body = await http(host, port, "POST", "/api/share-codes", basic(u), b'{"scopes":["live"]}')
            code = json.loads(body)["code"]
            status, _ = await http(host, port, "POST", "/api/share-codes/redeem", basic("watcher"),
                                   json.dumps({"code": code}).encode())
            assert status == 200, status
        sent, latencies, errors, delays = {}, [], [], []
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch(host, port, names, sent, delays, stop))
        await asyncio.sleep(0.5)
        span = a.seconds * (SATURATED_MAX if a.saturate else 1)
        base_ms = (int(time.time()) - span - 5) * 1000
        start = time.monotonic() + 0.5
        began = time.monotonic()
        database_cpu = postgres_cpu_seconds() if store.startswith("postgres") else 0
        api_stop, api_latencies, api_errors = asyncio.Event(), [], []
        askers = [asyncio.create_task(api_client(host, ports[k % len(ports)], u, start, api_stop, api_latencies,
                                                 api_errors)) for k, u in enumerate(clients)]
        await asyncio.gather(*[
            connection(host, ports[c % len(ports)], [(tokens[i], i) for i in range(c, a.devices, connections)],
                       start, a.seconds, sent, latencies, errors, base_ms, a.saturate)
            for c in range(connections)])
        wall = time.monotonic() - (start if a.saturate else began)
        api_stop.set()
        await asyncio.gather(*askers)
        database_cpu = postgres_cpu_seconds() - database_cpu if store.startswith("postgres") else 0
        await asyncio.sleep(2)
        stop.set()
        await watcher
        rss = max(peak_rss_mb(server.pid) for server in servers)
        cpu = sum(cpu_seconds(server.pid) for server in servers)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
    if store.startswith("postgres"):
        stored = int(subprocess.run(["psql", "-X", "-A", "-t", "-d", store, "-c", "select count(*) from position"],
                                    capture_output=True, text=True, check=True).stdout)
    else:
        stored = sqlite3.connect(store).execute("select count(*) from point").fetchone()[0]
    result = {
        "store": "postgresql" if store.startswith("postgres") else "sqlite", "processes": a.processes,
        "saturate": a.saturate,
        "devices": a.devices, "connections": connections, "seconds": a.seconds, "sent": len(sent), "stored": stored,
        "lost": len(sent) - stored, "errors": len(errors), "wall_s": round(wall, 1),
        "points_per_s": round(len(sent) / wall, 1),
        "latency_ms_p50": round(percentile(latencies, 50) * 1000, 2),
        "latency_ms_p99": round(percentile(latencies, 99) * 1000, 2),
        "live_events": len(delays),
        "live_delay_ms_p50": round(percentile(delays, 50) * 1000, 2),
        "live_delay_ms_p99": round(percentile(delays, 99) * 1000, 2),
        "server_peak_rss_mb": round(rss, 1),  # the largest of the processes
        "server_cpu_ms_per_point": round(cpu * 1000 / max(1, len(sent)), 2),  # all processes, set-up included
    }
    if clients:  # the API clients' answers while the phones posted (a last one may end a little after)
        result["api_clients"] = len(clients)
        result["api_answers_per_s"] = round(len(api_latencies) / wall, 1)
        result["api_latency_ms_p99"] = round(percentile(api_latencies, 99) * 1000, 2)
        result["api_errors"] = len(api_errors)
    if store.startswith("postgres"):  # the phones' posting only; every PostgreSQL process on the machine
        result["postgres_cpu_ms_per_point"] = round(database_cpu * 1000 / max(1, len(sent)), 2)
    if a.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:20} {v}")
    subprocess.run(["rm", "-rf", work])
    if result["lost"] or result["errors"] or api_errors:
        sys.exit(1)


asyncio.run(main())
