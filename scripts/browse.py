#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol, for tests of live pages.

usage: browse.py URL [--cookie NAME=VALUE] [--width 1100] [--dark] STEP...

--dark: the page sees a reader who prefers a dark colour scheme.

Steps, in order:
  wait:EXPR        evaluate the JavaScript EXPR until it is truthy (90 s at most, else exit 1: a
                   machine under a whole suite's load can take that long; a passing wait returns
                   as soon as it holds)
  eval:EXPR        print the value of EXPR as a JSON line
  run:COMMAND      run a shell command (e.g. a phone posting a point) and go on
  shot:PATH        save a PNG screenshot of the page
  file:CSS=PATH    choose the file PATH in the file input CSS selects (as a person picking it)

Needs only the standard library and Debian's chromium.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request


class DevTools:
    """A minimal WebSocket client (RFC 6455, text frames, client masking) for one target."""

    def __init__(self, ws_url):
        u = urllib.parse.urlparse(ws_url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"DevTools refused the connection: {head[:200]!r}")
        self.next_id = 0

    def _recv_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise SystemExit("DevTools closed the connection")
            data += chunk
        return data

    def _recv(self):
        message = b""
        while True:
            b0, b1 = self._recv_exact(2)
            length = b1 & 0x7F
            if length == 126:
                length = int.from_bytes(self._recv_exact(2), "big")
            elif length == 127:
                length = int.from_bytes(self._recv_exact(8), "big")
            message += self._recv_exact(length)
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        else:
            header += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:
            reply = self._recv()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise SystemExit(f"{method}: {reply['error']}")
                return reply.get("result", {})


def evaluate(tools, expression):
    result = tools.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in result:
        return None
    return result["result"].get("value")


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return
    url, args = args[0], args[1:]
    cookie, width, dark, steps = None, 1100, False, []
    while args:
        a = args.pop(0)
        if a == "--cookie":
            cookie = args.pop(0)
        elif a == "--width":
            width = int(args.pop(0))
        elif a == "--dark":
            dark = True
        else:
            steps.append(a)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("Chromium is missing: sudo apt-get install chromium (make test does this).")
    profile = tempfile.mkdtemp(prefix="browse-")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
         "--disable-background-networking", "--disable-component-update", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", f"--window-size={width},900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        for _ in range(600):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.05)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        tools.call("Network.enable")
        tools.call("Page.enable")
        tools.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1, mobile=False)
        if dark:
            tools.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        if cookie:
            name, value = cookie.split("=", 1)
            tools.call("Network.setCookie", name=name, value=value, url=url, httpOnly=True, sameSite="Strict")
        tools.call("Page.navigate", url=url)
        # The steps begin once the page has loaded (a screenshot of a page still being replaced fails).
        deadline = time.time() + 90
        while evaluate(tools, "document.readyState === 'complete' && location.href !== 'about:blank'") is not True:
            if time.time() > deadline:
                raise SystemExit(f"{url} did not load in 90 s")
            time.sleep(0.05)
        for step in steps:
            kind, _, rest = step.partition(":")
            if kind == "wait":
                deadline = time.time() + 90
                while not evaluate(tools, rest):
                    if time.time() > deadline:
                        raise SystemExit(f"never true: {rest}\n" + str(evaluate(tools, "document.body && document.body.outerHTML")))
                    time.sleep(0.1)
            elif kind == "eval":
                print(json.dumps(evaluate(tools, rest)), flush=True)
            elif kind == "run":
                subprocess.run(rest, shell=True, check=True)
            elif kind == "file":
                selector, _, path = rest.partition("=")
                root = tools.call("DOM.getDocument")["root"]["nodeId"]
                node = tools.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
                if not node:
                    raise SystemExit(f"no element {selector!r} to choose a file in")
                tools.call("DOM.setFileInputFiles", files=[os.path.abspath(path)], nodeId=node)
            elif kind == "shot":
                data = tools.call("Page.captureScreenshot", format="png")["data"]
                with open(rest, "wb") as f:
                    f.write(base64.b64decode(data))
            else:
                raise SystemExit(f"unknown step {step!r}")
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


main()
