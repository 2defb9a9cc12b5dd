#!/usr/bin/env python3
"""Writes an export.xml with its top-level elements in the order Apple's exporter lists
them: every Record grouped by type (types in order of first appearance, each type's records
in file order), then Correlations, Workouts and ActivitySummaries. The header (DTD,
ExportDate, Me) and the footer are kept as they are. Nothing else changes: the same
elements, the same bytes per element.

The generated export (`healthpipe bench import`, `SyntheticExport`) writes day by day, so
active energy and distance alternate record by record, and a day's exercise minutes,
basal energy and stand hours sit between the next day's; a real export lists one type
after another (docs/benchmarks.md, 2026-11-27 (fifth)). This gives the same records in a
real export's order, to measure the import on both:

    python3 scripts/export-by-type.py /tmp/healthpipe-bench/150mb/bench-150mb.xml /tmp/by-type/export.xml
    ln -s /tmp/healthpipe-bench/150mb/workout-routes /tmp/by-type/workout-routes   # the routes it links to
    healthpipe bench import --file /tmp/by-type/export.xml --runs 3

Reads the whole file into memory (about twice its size)."""
import sys

if len(sys.argv) != 3:
    sys.exit("usage: export-by-type.py EXPORT.xml OUT.xml")
source, destination = sys.argv[1], sys.argv[2]
with open(source, encoding="utf-8") as file:
    lines = file.read().split("\n")
try:
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("<HealthData"))
    end = max(i for i, line in enumerate(lines) if line.strip() == "</HealthData>")
except (StopIteration, ValueError):
    sys.exit(f"{source}: no <HealthData> … </HealthData> element")
# Top-level elements, one tag per line as Apple and SyntheticExport write them.
elements, current, depth = [], [], 0
for number, line in enumerate(lines[start + 1:end], start + 2):
    text = line.strip()
    current.append(line)
    if text.startswith("</"):
        depth -= 1
    elif text.startswith("<") and not text.endswith("/>") and not text.startswith("<!--"):
        depth += 1
    if depth < 0:
        sys.exit(f"{source}:{number}: a closing tag without its opening tag")
    if depth == 0:
        elements.append(current)
        current = []
if current:
    sys.exit(f"{source}: an element is not closed before </HealthData>"
             " (this script reads one tag per line, as Apple and SyntheticExport write them)")
order = {"ExportDate": 0, "Me": 0, "Record": 1, "Correlation": 2, "Workout": 3, "ActivitySummary": 4}
types = {}


def position(element):
    first = element[0].strip()
    name = first[1:].split(" ", 1)[0].rstrip("/>")
    kind = order.get(name, 5)
    if kind != 1 or 'type="' not in first:
        return (kind, 0)
    return (1, types.setdefault(first.split('type="', 1)[1].split('"', 1)[0], len(types)))


ranked = sorted(range(len(elements)), key=lambda index: position(elements[index]))  # stable
with open(destination, "w", encoding="utf-8") as out:
    out.write("\n".join(lines[:start + 1]) + "\n")
    for index in ranked:
        out.write("\n".join(elements[index]) + "\n")
    out.write("\n".join(lines[end:]))
print(f"{destination}: {len(elements)} elements, records of {len(types)} types grouped")
