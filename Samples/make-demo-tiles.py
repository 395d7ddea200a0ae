#!/usr/bin/env python3
"""Writes an MBTiles file of made-up base map tiles for `make demo`, so the demo report shows a
map without the internet: a paper-coloured ground, a faint grid every 1/8 tile and a firmer one
at tile edges. Not a real map; `--tiles https://...` with a real tile server gives one.

usage: make-demo-tiles.py OUT.mbtiles SOUTH WEST NORTH EAST MINZOOM MAXZOOM
"""
import math
import sqlite3
import struct
import sys
import zlib


def png(pixels, size):
    raw = b"".join(b"\x00" + bytes(pixels[y * size * 3:(y + 1) * size * 3]) for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def tile(size=256):
    ground, faint, firm = (0xF2, 0xEF, 0xE6), (0xDD, 0xD8, 0xCB), (0xB9, 0xB2, 0xA0)
    pixels = bytearray()
    for y in range(size):
        for x in range(size):
            if x == 0 or y == 0:
                pixels += bytes(firm)
            elif x % 32 == 0 or y % 32 == 0:
                pixels += bytes(faint)
            else:
                pixels += bytes(ground)
    return png(pixels, size)


def column(lon, z):
    return int((lon + 180) / 360 * (1 << z))


def row(lat, z):
    r = math.radians(lat)
    return int((1 - math.log(math.tan(r) + 1 / math.cos(r)) / math.pi) / 2 * (1 << z))


def main():
    out, south, west, north, east, low, high = sys.argv[1], *map(float, sys.argv[2:6]), *map(int, sys.argv[6:8])
    data = tile()
    db = sqlite3.connect(out)
    db.execute("DROP TABLE IF EXISTS metadata")
    db.execute("DROP TABLE IF EXISTS tiles")
    db.execute("CREATE TABLE metadata (name text, value text)")
    db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
    db.executemany(
        "INSERT INTO metadata VALUES (?, ?)",
        [("name", "Trailbook demo grid"), ("format", "png"), ("bounds", f"{west},{south},{east},{north}")],
    )
    count = 0
    for z in range(low, high + 1):
        for x in range(column(west, z), column(east, z) + 1):
            for y in range(row(north, z), row(south, z) + 1):
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, data))
                count += 1
    db.commit()
    print(f"{out}: {count} tiles, zoom {low} to {high}")


main()
