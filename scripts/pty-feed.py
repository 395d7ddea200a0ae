#!/usr/bin/env python3
"""Feed an NMEA log into a pseudo-terminal at a fixed epoch rate, like a receiver on USB.

usage: scripts/pty-feed.py LOG LINK RATE_HZ SECONDS
Creates a pty, points LINK at its slave, writes one epoch (RMC to the next RMC) every
1/RATE_HZ seconds for SECONDS, looping over the log; then removes LINK. For `make bench`.
"""
import os, sys, time

log, link, rate, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
epochs, current = [], b""
for line in open(log, "rb"):
    if line[3:6] == b"RMC" and current:
        epochs.append(current)
        current = b""
    current += line
epochs.append(current)
master, slave = os.openpty()
path = os.ttyname(slave)
if os.path.lexists(link):
    os.remove(link)
os.symlink(path, link)
try:
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        os.write(master, epochs[n % len(epochs)])
        n += 1
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
finally:
    os.remove(link)
    os.close(master)
