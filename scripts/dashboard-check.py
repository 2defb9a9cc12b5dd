"""Checks the dashboard as chromium rendered it (scripts/dashboard-screenshots).

argv: the folder with the pages' rendered DOMs ({year,empty,workout,server-*}.dom.html), the folder
with their screenshots.
"""
import struct
import sys
import zlib
from html.parser import HTMLParser

PANELS = ["today", "readiness", "trends", "sleep", "workouts", "quality"]


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.charts, self.text, self.skip = set(), 0, [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "figure" and "chart" in (attrs.get("class") or "").split():
            self.charts += 1
        if tag in ("style", "script"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.text.append(data)


def distinct_colours(path):
    """Distinct pixel colours of an 8-bit RGB or RGBA PNG (a sample of rows)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"{path}: unexpected PNG format"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            a = row[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = row
        if y % 7 == 0:
            for x in range(0, stride, channels * 3):
                colours.add(bytes(row[x : x + 3]))
    return width, height, len(colours)


def main():
    dom, shots = sys.argv[1], sys.argv[2]
    failures = []
    # Rings, steps, energy, resting HR, HRV, weight, sleep stages, sleep consistency; the
    # empty store: the rings alone.
    expected = {"year": 8, "empty": 1}
    for store, charts in expected.items():
        page = Page()
        page.feed(open(f"{dom}/{store}.dom.html", encoding="utf-8").read())
        text = " ".join(page.text)
        for panel in PANELS:
            if f"panel-{panel}" not in page.ids:
                failures.append(f"{store}: no panel-{panel}")
        if page.charts != charts:
            failures.append(f"{store}: {page.charts} charts, expected {charts}")
        for junk in ("NaN", "undefined", "null", "Infinity"):
            if junk in text:
                failures.append(f"{store}: the page reads '{junk}'")
        print(f"dashboard-check: {store}: {len(PANELS)} panels, {page.charts} charts, {len(text.split())} words")
        for shape in ("desktop", "phone"):
            path = f"{shots}/{store}-{shape}.png"
            width, height, colours = distinct_colours(path)
            print(f"dashboard-check: {path}: {width}×{height}, {colours} colours")
            if colours < 8:
                failures.append(f"{path}: blank ({colours} colours)")
    # A workout's page: its route map (to scale, no tiles), its elevation profile, its
    # splits, no junk, not blank.
    page = Page()
    page.feed(open(f"{dom}/workout.dom.html", encoding="utf-8").read())
    text = " ".join(page.text)
    for wanted in ("route-map-title", "chart-elevation", "chart-heart", "summary", "route", "splits", "heart"):
        if wanted not in page.ids:
            failures.append(f"workout: no {wanted}")
    if page.charts < 1:
        failures.append(f"workout: {page.charts} charts")
    for junk in ("NaN", "undefined", "null", "Infinity"):
        if junk in text:
            failures.append(f"workout: the page reads '{junk}'")
    print(f"dashboard-check: workout: {page.charts} charts, {len(text.split())} words")
    for shape in ("desktop", "phone"):
        path = f"{shots}/workout-{shape}.png"
        width, height, colours = distinct_colours(path)
        print(f"dashboard-check: {path}: {width}×{height}, {colours} colours")
        if colours < 8:
            failures.append(f"{path}: blank ({colours} colours)")
    # The server's pages: every panel and chart for a signed-in user who allowed everything
    # (a year ending today, weighings included: 8 charts); with sleep
    # denied, the denied view in place of the sleep and readiness panels; the consent page
    # with its eight kinds; the sign-in form.
    checks = {
        "server-dashboard": (8, None, ["desktop", "phone"]),
        "server-denied": (6, "You have not allowed this page to use your sleep data", ["desktop"]),
        "server-consent": (0, "What may HealthPipeline use?", ["phone"]),
        "server-login": (0, "Sign in to your health dashboard", ["phone"]),
    }
    for name, (charts, phrase, shapes) in checks.items():
        page = Page()
        page.feed(open(f"{dom}/{name}.dom.html", encoding="utf-8").read())
        text = " ".join(page.text)
        if name.startswith("server-d"):
            for panel in PANELS:
                if f"panel-{panel}" not in page.ids:
                    failures.append(f"{name}: no panel-{panel}")
        if page.charts != charts:
            failures.append(f"{name}: {page.charts} charts, expected {charts}")
        if phrase and phrase not in " ".join(text.split()):
            failures.append(f"{name}: does not say '{phrase}'")
        for junk in ("NaN", "undefined", "null", "Infinity"):
            if junk in text:
                failures.append(f"{name}: the page reads '{junk}'")
        print(f"dashboard-check: {name}: {page.charts} charts, {len(text.split())} words")
        for shape in shapes:
            path = f"{shots}/{name}-{shape}.png"
            width, height, colours = distinct_colours(path)
            print(f"dashboard-check: {path}: {width}×{height}, {colours} colours")
            if colours < 8:
                failures.append(f"{path}: blank ({colours} colours)")
    if failures:
        print("\n".join("dashboard-check: " + f for f in failures), file=sys.stderr)
        sys.exit(1)


main()
