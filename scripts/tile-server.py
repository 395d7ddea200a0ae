#!/usr/bin/env python3
"""A tile server on 127.0.0.1 for `make bench`: every /{z}/{x}/{y}.png is a 256-pixel PNG of one
colour (max-age one hour), each request counted in COUNT_FILE. Prints its port, then serves.

usage: tile-server.py COUNT_FILE
"""
import re
import struct
import sys
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png(rgb, size=256):
    raw = (b"\x00" + bytes(rgb) * size) * size

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


TILE = png((0xE8, 0xE4, 0xD8))
count_file = sys.argv[1]


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        with open(count_file, "a") as f:
            f.write(self.path + "\n")
        if not re.fullmatch(r"/\d+/\d+/\d+\.png", self.path):
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(TILE)))
        self.send_header("Cache-Control", "max-age=3600")
        self.end_headers()
        self.wfile.write(TILE)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
