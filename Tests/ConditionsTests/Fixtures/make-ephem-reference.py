#!/usr/bin/env python3
"""Writes ephem-reference.csv: sun and moon positions, the moon's illuminated fraction,
twilights and the moon's transits from PyEphem (libastro: VSOP87 for the sun, ELP 2000-82
for the moon), an implementation independent of Trailbook's, at fixed pseudo-random moments.

    python3 -m venv /tmp/ephem && /tmp/ephem/bin/pip install ephem==4.2.1
    /tmp/ephem/bin/python make-ephem-reference.py > ephem-reference.csv

Positions are topocentric and airless (pressure 0: no refraction), so the comparison checks
the ephemeris and the sidereal time, not one refraction model against another. Times are UTC.
"""
import datetime as dt
import math
import random

import ephem

PLACES = [
    ("fredonia", 29.0, -81.0),
    ("south-pacific", -60.0, -150.0),
    ("zurich", 47.3769, 8.5417),
    ("sydney", -33.8688, 151.2093),
    ("reykjavik", 64.1466, -21.9426),
    ("quito", -0.1807, -78.4678),
]


def iso(d):
    if d is None:
        return ""
    return ephem.Date(d).datetime().replace(tzinfo=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def within(fn, body, day_start, day_end):
    try:
        t = fn(body, start=day_start)
    except (ephem.AlwaysUpError, ephem.NeverUpError):
        return None
    return t if t < day_end else None


def main():
    rng = random.Random(19)
    start = dt.datetime(2019, 1, 1, tzinfo=dt.timezone.utc).timestamp()
    end = dt.datetime(2031, 1, 1, tzinfo=dt.timezone.utc).timestamp()
    print("place,lat,lon,time,sun_alt,sun_az,moon_alt,moon_az,moon_fraction,moon_elongation,"
          "civil_dawn,civil_dusk,nautical_dawn,nautical_dusk,moon_upper_transit,moon_lower_transit")
    for name, lat, lon in PLACES:
        for _ in range(60):
            t = dt.datetime.fromtimestamp(round(rng.uniform(start, end)), dt.timezone.utc)
            o = ephem.Observer()
            o.lat, o.lon = str(lat), str(lon)
            o.elevation = 0
            o.pressure = 0
            o.date = t.replace(tzinfo=None)
            sun, moon = ephem.Sun(o), ephem.Moon(o)
            moon_ecl = ephem.Ecliptic(ephem.Equatorial(moon.g_ra, moon.g_dec, epoch=o.date), epoch=o.date)
            sun_ecl = ephem.Ecliptic(ephem.Equatorial(sun.g_ra, sun.g_dec, epoch=o.date), epoch=o.date)
            elongation = math.degrees(moon_ecl.lon - sun_ecl.lon) % 360.0

            day = t.replace(hour=0, minute=0, second=0, tzinfo=None)
            day_start, day_end = ephem.Date(day), ephem.Date(day + dt.timedelta(days=1))
            twilight = []
            for horizon in ("-6", "-12"):
                d = ephem.Observer()
                d.lat, d.lon, d.elevation, d.pressure, d.horizon = str(lat), str(lon), 0, 0, horizon
                d.date = day_start
                rise = within(lambda b, start: d.next_rising(b, start=start, use_center=True), ephem.Sun(), day_start, day_end)
                d.date = day_start
                fall = within(lambda b, start: d.next_setting(b, start=start, use_center=True), ephem.Sun(), day_start, day_end)
                twilight += [rise, fall]
            m = ephem.Observer()
            m.lat, m.lon, m.elevation, m.pressure = str(lat), str(lon), 0, 0
            m.date = day_start
            upper = within(lambda b, start: m.next_transit(b, start=start), ephem.Moon(), day_start, day_end)
            lower = within(lambda b, start: m.next_antitransit(b, start=start), ephem.Moon(), day_start, day_end)
            row = [name, f"{lat}", f"{lon}", iso(o.date),
                   f"{math.degrees(sun.alt):.5f}", f"{math.degrees(sun.az):.5f}",
                   f"{math.degrees(moon.alt):.5f}", f"{math.degrees(moon.az):.5f}",
                   f"{moon.moon_phase:.5f}", f"{elongation:.5f}",
                   iso(twilight[0]), iso(twilight[1]), iso(twilight[2]), iso(twilight[3]),
                   iso(upper), iso(lower)]
            print(",".join(row))


if __name__ == "__main__":
    main()
