#!/usr/bin/env python3
"""Feed an NMEA log into a pseudo-terminal at a fixed epoch rate, like a receiver on USB.

usage: scripts/pty-feed.py LOG LINK RATE_HZ SECONDS [UNPLUG_EVERY_S]
Creates a pty, points LINK at its slave, writes one epoch (RMC to the next RMC) every
1/RATE_HZ seconds for SECONDS, looping over the log; then removes LINK. With UNPLUG_EVERY_S,
every that many seconds the receiver is "unplugged" for 2 s (pty closed, LINK removed) and
plugged in again on a new pty behind the same LINK, going on with the next epoch.
For `make bench` and scripts/soak.sh.
"""
import os, signal, sys, time

signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

log, link, rate, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
unplug_every = float(sys.argv[5]) if len(sys.argv) > 5 else 0
epochs, current = [], b""
for line in open(log, "rb"):
    if line[3:6] == b"RMC" and current:
        epochs.append(current)
        current = b""
    current += line
epochs.append(current)
def plug():
    master, slave = os.openpty()
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.ttyname(slave), link)
    return master, slave

master, slave = plug()
unplugs = 0
try:
    start = time.monotonic()
    next_unplug = start + unplug_every if unplug_every else None
    n = 0
    while time.monotonic() - start < seconds:
        if next_unplug and time.monotonic() >= next_unplug:
            os.remove(link)
            os.close(master)
            os.close(slave)
            time.sleep(2)
            master, slave = plug()
            unplugs += 1
            next_unplug = time.monotonic() + unplug_every
        try:
            os.write(master, epochs[n % len(epochs)])
        except OSError:
            pass
        n += 1
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
finally:
    if os.path.lexists(link):
        os.remove(link)
    os.close(master)
    if unplugs:
        print(f"pty-feed: {n} epochs, {unplugs} unplugs", file=sys.stderr)
