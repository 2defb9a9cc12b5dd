#!/usr/bin/env python3
"""Copies a generated export beside its routes into a new folder, with its first route (by
name) replaced by one of POINTS points, a point a second as the Apple Watch records them,
in Apple's GPX layout. It measures what one long workout costs the import's memory
(docs/benchmarks.md, 2026-11-27 (sixth)): 108,000 points is a 30-hour 100-mile race
(a 21 MB GPX), 260,000 a three-day one.

    python3 scripts/long-route.py /tmp/healthpipe-bench/150mb/bench-150mb.xml 108000 /tmp/long-route
    /usr/bin/time -f "%e s %M KiB" healthpipe import /tmp/long-route/bench-150mb.xml --db /tmp/long.sqlite

The export's XML is hard-linked (copied if it cannot be), the other routes copied."""
import datetime
import os
import shutil
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: long-route.py EXPORT.xml POINTS OUT_FOLDER")
    export, points, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    routes = os.path.join(os.path.dirname(os.path.abspath(export)), "workout-routes")
    names = sorted(os.listdir(routes)) if os.path.isdir(routes) else []
    if not names:
        sys.exit(f"long-route.py: no workout-routes folder with routes beside {export}")
    os.makedirs(out, exist_ok=True)
    target = os.path.join(out, os.path.basename(export))
    if os.path.exists(target):
        os.remove(target)
    try:
        os.link(export, target)
    except OSError:
        shutil.copyfile(export, target)
    shutil.rmtree(os.path.join(out, "workout-routes"), ignore_errors=True)
    shutil.copytree(routes, os.path.join(out, "workout-routes"))
    start = datetime.datetime(2024, 1, 2, 2, 26, 43)
    with open(os.path.join(out, "workout-routes", names[0]), "w") as gpx:
        gpx.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">\n'
                  ' <trk><name>Route</name><trkseg>\n')
        for index in range(points):
            time = (start + datetime.timedelta(seconds=index)).strftime("%Y-%m-%dT%H:%M:%SZ")
            gpx.write(f'  <trkpt lon="{-118.2337 + index * 1e-6:.6f}" lat="{34.0522 + index * 1e-6:.6f}">'
                      f'<ele>{30 + index % 50 * 0.1:.1f}</ele><time>{time}</time><extensions><speed>2.9</speed>'
                      f'<course>{index % 360:.1f}</course><hAcc>3.0</hAcc><vAcc>2.0</vAcc></extensions></trkpt>\n')
        gpx.write(' </trkseg></trk>\n</gpx>\n')
    print(f"{out}: {names[0]} holds {points:,} points")


main()
