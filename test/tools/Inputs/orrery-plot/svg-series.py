"""Prints what an orrery-plot SVG holds: each element with an id of the
given prefix and its point count (marker <use> elements), sorted."""
import collections
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
tree = ET.parse(sys.argv[1])
prefix = sys.argv[2]
if prefix == "breakdown:":
    # One bar per point: count the bars of each category.
    counts = collections.Counter(
        g.get("id").rsplit(":", 1)[0] for g in tree.iter(NS + "g")
        if g.get("id", "").startswith(prefix))
    for name in sorted(counts):
        print(name, counts[name])
else:
    for g in sorted((g for g in tree.iter(NS + "g")
                     if g.get("id", "").startswith(prefix)),
                    key=lambda g: g.get("id")):
        print(g.get("id"), len(list(g.iter(NS + "use"))))
