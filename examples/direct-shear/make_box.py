#!/usr/bin/env python3
"""Direct shear, stage 2 of 3: build the split shear box of particles around the grains.

Reads the settled grains (prepared.data, written by in.prepare) and writes shear.data:

  type 1  grains (5 mm)
  type 2  lower box: floor, four side walls up to the shear plane, and a flange on the +x
          side (the floor under the part of the upper box that moves past the lower box)
  type 3  upper box: four side walls from the shear plane up, and a flange on the -x side
          (the cover over the part of the lower box that the upper box uncovers)
  type 4  lid: one plate, loaded by a constant force (in.shear)

Every wall is a square grid of touching 2.5 mm spheres whose surface is at the inner face
of the 6 cm x 6 cm box (centres one wall radius outside it). Wall spheres have the mass of
a grain, so that LAMMPS's gran/hooke(/history) use one effective mass, m/2, for every
contact (its damping and the pseudo-history stiffness of in.models are per unit mass).

usage: make_box.py prepared.data HEIGHT shear.data SMAX
  HEIGHT: height of the compacted specimen (m; prepared_height.txt of in.prepare): the
          shear plane is put on the wall grid nearest to half of it, the lid on top of it
  SMAX:   largest shear displacement (m) the flanges must cover
"""
import sys

L = 0.06          # inside length and width of the box
D = 0.005         # grain diameter
RW = 0.00125      # wall sphere radius
SW = 2 * RW       # wall grid spacing (touching spheres)
RHO = 2500.0
RHO_W = RHO * (D / (2 * RW)) ** 3   # wall sphere density: same mass as a grain


def read_grains(path):
    lines = open(path).read().splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("Atoms"))
    grains = []
    for l in lines[i + 2:]:
        if not l.strip():
            if grains:
                break
            continue
        f = l.split()
        # sphere style: id type diameter density x y z [ix iy iz]
        grains.append((float(f[2]), float(f[4]), float(f[5]), float(f[6])))
    return grains


def grid(n):
    """centres of n touching wall spheres along [0, n*SW]"""
    return [RW + k * SW for k in range(n)]


def main():
    src, h, dst, smax = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    grains = read_grains(src)
    ztop = max(z for _, _, _, z in grains) + D / 2
    k_shear = max(2, round(0.5 * h / SW))
    hs = k_shear * SW
    n_side = round(L / SW)                    # 24 spheres across the box
    n_flange = int((smax + 2 * D) / SW) + 1   # flange length
    ztop_walls = ztop + 3 * D                 # the upper box stands well above the grains
    n_up = int((ztop_walls - hs) / SW) + 1

    atoms = []  # (type, diameter, density, x, y, z)
    for d, x, y, z in grains:
        atoms.append((1, d, RHO, x, y, z))

    def wall(t, x, y, z):
        atoms.append((t, 2 * RW, RHO_W, x, y, z))

    # lower box: floor, side walls with rows z = RW .. hs - RW, flange at +x
    for x in grid(n_side):
        for y in grid(n_side):
            wall(2, x, y, -RW)
    for k in range(k_shear):
        z = RW + k * SW
        for c in grid(n_side):
            wall(2, -RW, c, z)
            wall(2, L + RW, c, z)
            wall(2, c, -RW, z)
            wall(2, c, L + RW, z)
    for i in range(n_flange):
        for j in range(n_side + 2):
            wall(2, L + 3 * RW + i * SW, -RW + j * SW, hs - RW)

    # upper box: side walls with rows z = hs + RW .., flange at -x
    for k in range(n_up):
        z = hs + RW + k * SW
        for c in grid(n_side):
            wall(3, -RW, c, z)
            wall(3, L + RW, c, z)
            wall(3, c, -RW, z)
            wall(3, c, L + RW, z)
    for i in range(n_flange):
        for j in range(n_side + 2):
            wall(3, -3 * RW - i * SW, -RW + j * SW, hs + RW)

    # lid, where the lid of in.prepare was (same grid), on the specimen
    zlid = h + RW
    for x in grid(n_side):
        for y in grid(n_side):
            wall(4, x, y, zlid)

    xlo = -3 * RW - n_flange * SW - 0.005
    xhi = L + 3 * RW + n_flange * SW + smax + 0.005
    ylo, yhi = -3 * RW, L + 3 * RW
    zlo, zhi = -3 * RW, hs + RW + n_up * SW + 0.01
    with open(dst, "w") as f:
        f.write("direct shear box (make_box.py): grains %d, shear plane %.6f m, "
                "specimen height %.6f m\n\n" % (len(grains), hs, h))
        f.write("%d atoms\n4 atom types\n\n" % len(atoms))
        f.write("%.6f %.6f xlo xhi\n%.6f %.6f ylo yhi\n%.6f %.6f zlo zhi\n\n"
                % (xlo, xhi, ylo, yhi, zlo, zhi))
        f.write("Atoms # sphere\n\n")
        for i, (t, d, rho, x, y, z) in enumerate(atoms, 1):
            f.write("%d %d %.6g %.6g %.9g %.9g %.9g\n" % (i, t, d, rho, x, y, z))
    counts = [sum(1 for a in atoms if a[0] == t) for t in (1, 2, 3, 4)]
    print("shear.data: grains %d, lower box %d, upper box %d, lid %d; "
          "shear plane at %.4f m, specimen height %.4f m, lid at %.4f m"
          % (*counts, hs, h, zlid))


if __name__ == "__main__":
    main()
