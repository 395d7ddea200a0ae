#!/usr/bin/env python3
"""Plots the growth benchmark as a small SVG (no plotting library needed).

usage: scripts/bench-plot.py growth.csv growth-queries.json out.svg
Left: import seconds per day against days in the store. Right: median time of each day query on
the 1-day and the 365-day store. Prints the same figures as a table.
"""
import csv, json, sys

rows = list(csv.DictReader(open(sys.argv[1])))
queries = {r["command"]: r["median"] for r in json.load(open(sys.argv[2]))["results"]}
W, H, P = 820, 300, 50
out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="#fff"/>']
# Left panel: import time per day (log-scaled x: 1, 10, 100, 365).
import math
xs = [math.log10(int(r["days"])) for r in rows]
ys = [float(r["seconds_per_day"]) * 1000 for r in rows]
ymax = max(ys) * 1.3
def px(x): return P + x / math.log10(365) * (W / 2 - 2 * P)
def py(y): return H - P - y / ymax * (H - 2 * P)
out.append(f'<text x="{P}" y="20" font-weight="bold">import, ms per day (30-min ride a day)</text>')
out.append(f'<line x1="{P}" y1="{H-P}" x2="{W/2-P}" y2="{H-P}" stroke="#333"/><line x1="{P}" y1="{P}" x2="{P}" y2="{H-P}" stroke="#333"/>')
out.append('<polyline fill="none" stroke="#0072b2" stroke-width="2.5" points="' + " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys)) + '"/>')
for r, x, y in zip(rows, xs, ys):
    out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="#0072b2"/><text x="{px(x):.1f}" y="{H-P+16}" text-anchor="middle">{r["days"]} d</text>')
    out.append(f'<text x="{px(x):.1f}" y="{py(y)-8:.1f}" text-anchor="middle">{y:.0f}</text>')
# Right panel: query medians, 1-day vs 365-day store.
names = ["rides --day", "points --day", "summary --day", "report day"]
qmax = max(queries.values()) * 1000 * 1.3
x0 = W / 2 + P
bw = (W / 2 - 2 * P) / len(names) / 2.5
out.append(f'<text x="{x0}" y="20" font-weight="bold">day queries, median ms: 1-day vs 365-day store</text>')
out.append(f'<line x1="{x0}" y1="{H-P}" x2="{W-P}" y2="{H-P}" stroke="#333"/>')
for i, n in enumerate(names):
    for j, (suffix, colour) in enumerate([("(1-day store)", "#e69f00"), ("(365-day store)", "#009e73")]):
        v = queries.get(f"{n} {suffix}", 0) * 1000
        x = x0 + i * bw * 2.5 + j * bw
        h = v / qmax * (H - 2 * P)
        out.append(f'<rect x="{x:.1f}" y="{H-P-h:.1f}" width="{bw-2:.1f}" height="{h:.1f}" fill="{colour}"/>')
        out.append(f'<text x="{x+bw/2:.1f}" y="{H-P-h-4:.1f}" text-anchor="middle" font-size="10">{v:.0f}</text>')
    out.append(f'<text x="{x0 + i*bw*2.5 + bw:.1f}" y="{H-P+16}" text-anchor="middle" font-size="10">{n}</text>')
out.append(f'<rect x="{W-190}" y="34" width="10" height="10" fill="#e69f00"/><text x="{W-175}" y="43">1-day store</text>')
out.append(f'<rect x="{W-100}" y="34" width="10" height="10" fill="#009e73"/><text x="{W-85}" y="43">365-day store</text>')
out.append("</svg>")
open(sys.argv[3], "w").write("\n".join(out) + "\n")
print("days in store, import ms/day, bytes/point: " + "; ".join(f'{r["days"]}: {float(r["seconds_per_day"])*1000:.0f} ms, {r["bytes_per_point"]} B' for r in rows))
for n in names:
    a, b = queries.get(f"{n} (1-day store)"), queries.get(f"{n} (365-day store)")
    if a and b:
        print(f"{n}: {a*1000:.1f} ms on 1 day, {b*1000:.1f} ms on 365 days ({b/a:.2f}x)")
print(f"plot: {sys.argv[3]}")
