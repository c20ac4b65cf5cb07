#!/usr/bin/env python3
"""examples/exact-coulomb: the pile of many spheres (in.pile_many), its lattice and its analysis.

usage: pile_many.py lattice BASE GAP LAYERS FILE
           a tetrahedral stack of LAYERS layers of spheres (R 1 cm, density 2500) on the wall
           z = 0 as a LAMMPS data file: a triangle of BASE spheres a side on the wall at centre
           distance 2R(1 + GAP) (not touching each other), every upper sphere in the hollow of
           three below it, touching them (each layer a triangle one sphere shorter a side)
       pile_many.py analyze DIR             creep_many.md in DIR from the runs' creep_<law>.txt
"""
import math
import os
import sys

R, RHO = 0.01, 2500.0
LAWS = ["coulomb_iterate", "coulomb", "kuhn", "hooke"]
NAMES = {"coulomb_iterate": "gran/coulomb `iterate 1e-10 200`", "coulomb": "gran/coulomb direct",
         "kuhn": "gran/kuhn", "hooke": "gran/hooke/history"}
TIMES = [0.2, 0.6, 1.0, 2.0]


def lattice(base, gap, layers):
    """Layers of triangles of spheres (layers = base: a tetrahedron): base (base + 1) / 2 spheres
    on the wall on a triangular lattice of spacing a, each upper sphere over the centroid of three
    below it."""
    a = 2.0 * R * (1.0 + gap)
    h = math.sqrt((2.0 * R) ** 2 - a * a / 3.0)
    e1, e2 = (a, 0.0), (0.5 * a, 0.5 * math.sqrt(3.0) * a)
    centre = ((base - 1) * (e1[0] + e2[0]) / 3.0, (base - 1) * (e1[1] + e2[1]) / 3.0)
    spheres = []
    for layer in range(layers):
        ox, oy = layer * (e1[0] + e2[0]) / 3.0, layer * (e1[1] + e2[1]) / 3.0
        n = base - layer
        for i in range(n):
            for j in range(n - i):
                spheres.append((ox + i * e1[0] + j * e2[0] - centre[0],
                                oy + i * e1[1] + j * e2[1] - centre[1], R + layer * h))
    return spheres, a, h


def write_lattice(base, gap, layers, path):
    spheres, a, h = lattice(base, gap, layers)
    half = base * a  # twice the base: room to spread without meeting its periodic image
    with open(path, "w") as f:
        f.write("# tetrahedral stack, base %d, gap %g, %d layers %.17g m apart\n\n" % (base, gap, layers, h))
        f.write("%d atoms\n1 atom types\n\n" % len(spheres))
        f.write("%.17g %.17g xlo xhi\n%.17g %.17g ylo yhi\n" % (-half, half, -half, half))
        f.write("0 %.17g zlo zhi\n\nAtoms # sphere\n\n" % (R + layers * h + 2.0 * R))
        for k, (x, y, z) in enumerate(spheres, 1):
            f.write("%d 1 %.17g %.17g %.17g %.17g %.17g\n" % (k, 2.0 * R, RHO, x, y, z))


def read(path):
    """Columns of a fix ave/time file: step first, then the values in input order."""
    with open(path) as f:
        return [[float(v) for v in line.split()] for line in f
                if line.strip() and not line.startswith("#")]


def at(rows, t):
    return min(rows, key=lambda r: abs(r[1] - t))


def analyze(d):
    lines = ["| law | mean displacement at " + " / ".join("%g" % t for t in TIMES) + " s (m) | "
             "largest displacement at the same times (m) | upper spheres' mean drop at %g s (m) | "
             "sweeps per step: mean, largest; steps at the cap; largest residual |" % TIMES[-1],
             "|---|---|---|---|---|"]
    for law in LAWS:
        path = os.path.join(d, "creep_%s.txt" % law)
        if not os.path.exists(path):
            continue
        rows = read(path)
        mean = " / ".join("%.2g" % at(rows, t)[2] for t in TIMES)
        large = " / ".join("%.2g" % at(rows, t)[3] for t in TIMES)
        drop = "%.2g" % at(rows, TIMES[-1])[4]
        solver = ""
        if law.startswith("coulomb"):
            steps = rows[1][0] - rows[0][0]
            sweeps = sum(r[5] for r in rows[1:]) / (len(rows) - 1)  # rows[0]: the start, no step
            capped = sum(r[7] for r in rows) * steps
            with open(path + ".max") as f:
                most_sweeps, most_residual = f.read().split()
            solver = "%.1f, %s; %d; %.2g" % (sweeps, most_sweeps, round(capped),
                                             float(most_residual))
        lines.append("| %s | %s | %s | %s | %s |" % (NAMES[law], mean, large, drop, solver))
    with open(os.path.join(d, "creep_many.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "lattice":
        write_lattice(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif len(sys.argv) == 3 and sys.argv[1] == "analyze":
        analyze(sys.argv[2])
    else:
        sys.exit(__doc__)
