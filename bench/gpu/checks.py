#!/usr/bin/env python3
"""The checks of tools/gpu-check: the Kokkos styles on a GPU against the CPU styles, and their
throughput. Plain Python 3 (no numpy, no GoogleTest): it writes LAMMPS inputs, runs the LAMMPS
executable it is given (the plugin loaded through LAMMPS_PLUGIN_PATH) and compares its outputs.

Correctness (`--part correctness`): the systems of the kokkos.* tests (unittest/kokkos/): the
dense colliding packing of 512 polydisperse spheres (unittest/lammps/lammps_session.cpp,
dense_packing_input), 100 steps, atoms re-sorted every 20 steps so that the history fix hands
histories over; once through the CPU style (no -k) and once through the Kokkos style (-k on
KOKKOS_ARGS -sf kk -pk kokkos neigh half newton off). Compared as the tests compare: per-atom
forces and torques to 1e-10 of the largest value, the pair's energies (compute pair), pair
energy, pair virial, per-atom virial and energy, the compute pair/local sums to 1e-10
relative, contact counts exactly, sliding counts within 1, gran/jaeger's history statistics
(records and longest stack equal, mean length to 1e-12, the merges). LAMMPS's
gran/hooke/history/kk against gran/hooke/history is the harness's reference: if it fails too,
the harness or the build is at fault, not the package.

Throughput (`--part throughput`): LAMMPS's bench/in.chute (32,000 spheres) and a replicated
chute (--big NXxNY, default 6x6: 1,152,000 spheres), gran/hooke/history/kk, gran/kuhn/kk and
gran/jaeger/kk with the pair coefficients of bench/bench.py, a warm-up run and a timed run:
atom-steps per second from LAMMPS's loop time, the GPU memory in use at the peak (nvidia-smi,
sampled every 0.2 s, less the memory in use before the run) and LAMMPS's own memory figure.

Results: OUT/results.json (read by bench/gpu/report.py) and OUT/results.md, rewritten after
every case so that a run stopped by its time limit leaves what it measured; OUT/checks.log holds
each LAMMPS run's output tail. Exit status 1 when a correctness check failed.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import bench    # noqa: E402  (the pair coefficients of the chute benchmarks: one source)

TOL = 1e-10
RUN_TIMEOUT = 180    # seconds for one run of the test packing (seconds on a CPU core): a hang ends

# --- the test packing (unittest/lammps/lammps_session.cpp: dense_packing_input) ---------------
PACKING = """units si
atom_style sphere
atom_modify map array
newton off
boundary p p p
comm_modify vel yes
lattice sc 0.0019
region box block 0 8 0 8 0 8
create_box 2 box
create_atoms 1 box
reset_atoms id sort yes
group odd id 1:512:2
set group odd type 2
variable d atom 0.00175+0.0003*((id*7919)%101)/101
set group all diameter v_d
set group all density 2650
velocity all create 1e16 87287 loop geom
variable wx atom 20*sin(id)
variable wy atom 20*cos(3*id)
variable wz atom 20*sin(7*id)
set group all omega v_wx v_wy v_wz
neighbor 0.0003 bin
neigh_modify delay 0
{pair}
fix integrate all nve/sphere
timestep 1e-5
"""


def packing_run(style, n_local, steps=100, sort=20, dense=False, stats=False):
    """The lines after the packing: what run_packing() (kokkos_test_support.h) reads, as a dump
    of the last step (forces, torques, per-atom virial and energy) and thermo columns. dense:
    the 18-contacts-per-atom variant (diameter 0.0028, two runs of steps/2)."""
    pl = " ".join("p%d" % k for k in range(1, n_local + 1))
    lines = []
    if dense:
        lines.append("set group all diameter 0.0028")
    lines += ["atom_modify sort %d 0.0" % sort,
              "compute sa all stress/atom NULL pair",
              "compute pea all pe/atom pair",
              "compute sas all reduce sum c_sa[*]",
              "compute peas all reduce sum c_pea",
              "compute pv all pressure NULL pair"]
    cols = "step nbuild pe c_pv[*] c_sas[*] c_peas"
    if style:
        lines.append("compute e all pair " + style)
        cols += " c_e[*]"
    if n_local:
        lines += ["compute pl all pair/local %s eng" % pl,
                  "compute pls all reduce sum c_pl[*] inputs local"]
        cols += " c_pls[*]"
    lines += ["thermo_style custom " + cols, "thermo_modify norm no format float %.17g",
              "dump d all custom %d atoms.dump id fx fy fz tqx tqy tqz c_sa[*] c_pea" % steps,
              "dump_modify d sort id format float %.17g"]
    if dense:    # the tests' two runs: all histories handed over at the run boundary
        lines += ["thermo %d" % (steps // 2), "run %d" % (steps // 2), "run %d" % (steps // 2)]
    else:
        lines += ["thermo %d" % steps, "run %d" % steps]
    if stats:    # the history fix exists once a run made it; run 0 advances no history
        lines += ["undump d", "thermo_style custom step f_DEMC_GRAN_JAEGER_HISTORY0[*]",
                  "thermo_modify norm no format float %.17g", "run 0 post no"]
    return "\n".join(lines) + "\n"


KUHN_PAIR = "pair_style gran/kuhn{}\npair_coeff * * 2.0e3 2.0e3 0.5 {}"
KUHN_DAMPING = "damping 0.002 0.001"
JAEGER_PAIR = "pair_style gran/jaeger{}\npair_coeff * * 1e7 0.3 0.5 {}"
JAEGER_DAMPING = "damping 0.002 0.001"
ROOMY = " history/max 24"    # no stack of the packing reaches it in 100 steps (the tests' ROOMY)

COULOMB_PAIR = "pair_style gran/coulomb{}\npair_coeff * * hooke 2.0e3 0.5 damping 0.002 0{}"
# the tests' rolling and twisting (test_kokkos_coulomb.cpp): the stored energy is theirs
COULOMB_ROLLING = " rolling sds 200 0.001 0.01 twisting sds 1e-6 1e-10 3e-6"


def ccase(name, cpu_pair, kk_pair, style="", n_local=0, stats=False, dense=False, expect=None):
    return dict(name=name, cpu=cpu_pair, kk=kk_pair, style=style, n_local=n_local, stats=stats,
                dense=dense, expect=expect or {})


HOOKE_PACK = "pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1\npair_coeff * *"
CORRECTNESS = [
    # the harness's reference: LAMMPS's own styles (test_kokkos_hooke.cpp)
    ccase("hooke/history", HOOKE_PACK, HOOKE_PACK),
    # test_kokkos_kuhn.cpp
    ccase("kuhn", KUHN_PAIR.format("", KUHN_DAMPING), KUHN_PAIR.format("", KUHN_DAMPING),
          "gran/kuhn", 8),
    ccase("kuhn elastic_slip no", KUHN_PAIR.format(" elastic_slip no", KUHN_DAMPING),
          KUHN_PAIR.format(" elastic_slip no", KUHN_DAMPING), "gran/kuhn", 8),
    ccase("kuhn restitution 0.95", KUHN_PAIR.format("", "restitution 0.95 0.4"),
          KUHN_PAIR.format("", "restitution 0.95 0.4"), "gran/kuhn", 8),
    ccase("kuhn 18 contacts/atom", KUHN_PAIR.format("", KUHN_DAMPING),
          KUHN_PAIR.format("", KUHN_DAMPING), "gran/kuhn", 0, dense=True),
    # test_kokkos_jaeger.cpp
    ccase("jaeger", JAEGER_PAIR.format("", JAEGER_DAMPING),
          JAEGER_PAIR.format(ROOMY, JAEGER_DAMPING), "gran/jaeger", 7, stats=True,
          expect={"no_merges": True}),
    ccase("jaeger history/max 4", JAEGER_PAIR.format(" history/max 4", JAEGER_DAMPING),
          JAEGER_PAIR.format(" history/max 4", JAEGER_DAMPING), "gran/jaeger", 7, stats=True,
          expect={"forced_merges": True}),
    ccase("jaeger work no", JAEGER_PAIR.format(" work no", JAEGER_DAMPING),
          JAEGER_PAIR.format(ROOMY + " work no", JAEGER_DAMPING), "gran/jaeger", 7, stats=True,
          expect={"no_work": True}),
    ccase("jaeger restitution 0.6", JAEGER_PAIR.format("", "restitution 0.6 0.4"),
          JAEGER_PAIR.format(" history/max 64", "restitution 0.6 0.4"), "gran/jaeger", 7,
          stats=True),
    ccase("jaeger 18 contacts/atom", JAEGER_PAIR.format(" history/max 6", JAEGER_DAMPING),
          JAEGER_PAIR.format(" history/max 6", JAEGER_DAMPING), "gran/jaeger", 0, stats=True,
          dense=True),
    # test_kokkos_coulomb.cpp: the direct decision (round-off) and the iterated solver (the
    # tests' bound 1e-8 for a solver tolerance of 1e-10 of the largest mu F_N)
    ccase("coulomb rolling twisting", COULOMB_PAIR.format("", COULOMB_ROLLING),
          COULOMB_PAIR.format("", COULOMB_ROLLING), "gran/coulomb", 7),
    ccase("coulomb iterate", COULOMB_PAIR.format(" iterate 1e-10 400", COULOMB_ROLLING),
          COULOMB_PAIR.format(" iterate 1e-10 400", COULOMB_ROLLING), "gran/coulomb", 7,
          expect={"tol": 1e-8}),
]

# a negative control of the harness (--control): the Kokkos run with another friction
# coefficient must fail the comparison, or the comparison proves nothing
CONTROL = ccase("control: kk with friction 0.45 (must fail)", KUHN_PAIR.format("", KUHN_DAMPING),
                "pair_style gran/kuhn\npair_coeff * * 2.0e3 2.0e3 0.45 " + KUHN_DAMPING,
                "gran/kuhn", 8)

# the history fix's vector: records, mean length, longest, bytes per record, merges (all), then
# for the Kokkos fix only: merges forced by the capacity
S_RECORDS, S_MEAN, S_LONGEST, S_BYTES, S_MERGES, S_FORCED = range(6)


# --- running LAMMPS and reading its output --------------------------------------------------
class Runner:
    def __init__(self, args):
        self.lmp = args.lmp
        self.plugin_dir = os.path.abspath(args.plugin_dir)
        self.kokkos = args.kokkos.split()
        self.work = args.work
        self.log = open(os.path.join(args.out, "checks.log"), "a")
        self.log_lock = threading.Lock()

    def kk_args(self):
        return (["-k", "on"] + self.kokkos +
                ["-sf", "kk", "-pk", "kokkos", "neigh", "half", "newton", "off"])

    def run(self, name, text, kk, cwd, timeout=None):
        """Run input `text` in folder cwd; return LAMMPS's screen output."""
        os.makedirs(cwd, exist_ok=True)
        with open(os.path.join(cwd, "in.lmp"), "w") as f:
            f.write(text)
        cmd = [self.lmp, "-in", "in.lmp", "-log", "log.lammps", "-nocite"]
        if kk:
            cmd += self.kk_args()
        env = dict(os.environ, LAMMPS_PLUGIN_PATH=self.plugin_dir, OMP_NUM_THREADS="1",
                   OMP_PROC_BIND="false")
        t0 = time.time()
        out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                             timeout=timeout)
        with self.log_lock:    # the CPU runs of the correctness checks run in threads
            self.log.write("==== %s (%s, %.1f s, exit %d): %s\n" % (
                name, "kk" if kk else "cpu", time.time() - t0, out.returncode, " ".join(cmd)))
            self.log.write(out.stdout[-4000:] + out.stderr[-4000:] + "\n")
            self.log.flush()
        if out.returncode != 0:
            tail = (out.stdout + out.stderr).strip().splitlines()[-15:]
            raise RuntimeError("LAMMPS failed (%s, %s): %s" % (name, "kk" if kk else "cpu",
                                                               " | ".join(tail)))
        return out.stdout


def thermo_blocks(text):
    """Each run's thermo table as (columns, last row): values as floats."""
    blocks, cols, last = [], None, None
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "Step":
            cols, last = words, None
        elif cols and words and len(words) == len(cols) and re.match(r"^-?\d+$", words[0]):
            try:
                last = [float(w) for w in words]
            except ValueError:
                pass
        elif cols and line.startswith("Loop time"):
            blocks.append((cols, last))
            cols = None
    return blocks


def read_dump_last(path):
    """The last snapshot of a custom dump: {column: [values in ID order]}."""
    lines = open(path).read().splitlines()
    start = max(i for i, l in enumerate(lines) if l.startswith("ITEM: ATOMS"))
    cols = lines[start].split()[2:]
    rows = [l.split() for l in lines[start + 1:] if l.strip()]
    return {c: [float(r[k]) for r in rows] for k, c in enumerate(cols)}


def max_rel_diff(a, b, columns):
    """max |a - b| over atoms and columns, over the largest |a| (the tests' measure)."""
    scale = diff = 0.0
    for c in columns:
        for x, y in zip(a[c], b[c]):
            scale = max(scale, abs(x))
            diff = max(diff, abs(x - y))
    if any(len(a[c]) != len(b[c]) for c in columns):
        return float("inf")
    return diff / scale if scale > 0 else diff


def relative(a, b):
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale > 0 else 0.0


# --- correctness ------------------------------------------------------------------------------
def run_side(runner, c, kk):
    side = "kk" if kk else "cpu"
    cwd = os.path.join(runner.work, "correctness", re.sub(r"[^A-Za-z0-9.]+", "_", c["name"]), side)
    shutil.rmtree(cwd, ignore_errors=True)
    text = PACKING.format(pair=c["kk"] if kk else c["cpu"])
    if c["dense"]:    # MoreThanEightContactsPerAtom: sorted every 5 steps, 2 runs of 15
        text += packing_run(c["style"], 0, steps=30, sort=5, dense=True, stats=c["stats"])
    else:
        text += packing_run(c["style"], c["n_local"], stats=c["stats"])
    out = runner.run(c["name"], text, kk, cwd, timeout=RUN_TIMEOUT)
    blocks = thermo_blocks(out)
    if not blocks or blocks[-1][1] is None:
        raise RuntimeError("no thermo output (%s, %s)" % (c["name"], side))
    res = {"dump": read_dump_last(os.path.join(cwd, "atoms.dump"))}
    main = blocks[-2] if c["stats"] else blocks[-1]
    res["thermo"] = dict(zip(main[0], main[1]))
    # the kk run must have re-built its neighbor lists (the history hand-over was exercised)
    res["nbuild"] = sum(dict(zip(b[0], b[1])).get("Nbuild", 0) for b in blocks if b[1])
    if c["stats"]:
        res["stats"] = blocks[-1][1][1:]
    return res


def compare(c, cpu, kk):
    """Checks of one case: list of (what, measured, limit, passed)."""
    checks = []
    tol = c["expect"].get("tol", TOL)    # iterated friction: the solver's tolerance, not round-off

    def check(what, value, limit, ok=None):
        checks.append((what, value, limit, bool(value < limit) if ok is None else bool(ok)))

    dc, dk = cpu["dump"], kk["dump"]
    check("forces", max_rel_diff(dc, dk, ["fx", "fy", "fz"]), tol)
    check("torques", max_rel_diff(dc, dk, ["tqx", "tqy", "tqz"]), tol)
    sa = [k for k in dc if k.startswith("c_sa[")]
    check("per-atom virial", max_rel_diff(dc, dk, sa), tol)
    check("per-atom energy", max_rel_diff(dc, dk, ["c_pea"]), tol)
    tc, tk = cpu["thermo"], kk["thermo"]
    pv = [k for k in tc if k.startswith("c_pv[")]
    vscale = max(abs(tc[k]) for k in pv)
    check("pair virial", max(abs(tc[k] - tk[k]) for k in pv) / vscale if vscale else 0.0, tol)
    check("pair energy", relative(tc["PotEng"], tk["PotEng"]), tol)
    e = sorted(k for k in tc if k.startswith("c_e["))
    if e:
        # an energy that is zero but for round-off (friction work where nothing slides: 1e-21
        # of the normal energy) is compared with 1e-9 of the largest energy term instead
        floor = 1e-9 * max(abs(tc[k]) for k in e[:4])
        for k in e[:4]:
            diff = abs(tc[k] - tk[k]) / max(abs(tc[k]), abs(tk[k]), floor) if floor else 0.0
            ok = diff < tol
            # the run stored and dissipated energy (no friction work with `work no`)
            if not c["dense"] and not (c["expect"].get("no_work") and k == "c_e[3]"):
                ok = ok and tc[k] > 0
            check("pair energy term %s" % k, diff, TOL, ok)
        if len(e) > 4:
            least = 4000 if c["dense"] else 100    # the dense packing: 9 contacts per atom
            check("contacts (cpu %g, kk %g)" % (tc[e[4]], tk[e[4]]), abs(tc[e[4]] - tk[e[4]]), 0.5,
                  tc[e[4]] == tk[e[4]] and tc[e[4]] > least)
        if len(e) > 5:    # a contact exactly on the friction cone: round-off decides
            check("sliding contacts", abs(tc[e[5]] - tk[e[5]]), 1.0 + 1e-9)
        if c["expect"].get("no_work"):
            check("no friction work with work no", abs(tk["c_e[3]"]), 1e-300)
    pls = sorted((k for k in tc if k.startswith("c_pls[")), key=lambda k: int(k[6:-1]))
    if pls:
        worst = 0.0
        for k in pls:
            scale = max(abs(tc[k]), 1e-12 * abs(tc[pls[0]]))
            worst = max(worst, abs(tc[k] - tk[k]) / scale if scale else 0.0)
        check("compute pair/local sums", worst, tol)
    if not c["dense"]:    # re-neighboring during the run: the history hand-over was exercised
        check("kk neighbor builds (%d)" % kk["nbuild"], -kk["nbuild"], -1.5)
    if c["stats"]:
        sc, sk = cpu["stats"], kk["stats"]
        check("history records (cpu %g, kk %g)" % (sc[S_RECORDS], sk[S_RECORDS]),
              abs(sc[S_RECORDS] - sk[S_RECORDS]), 0.5)
        check("mean stack length", relative(sc[S_MEAN], sk[S_MEAN]), 1e-12)
        check("longest stack (cpu %g, kk %g)" % (sc[S_LONGEST], sk[S_LONGEST]),
              abs(sc[S_LONGEST] - sk[S_LONGEST]), 0.5)
        if c["expect"].get("no_merges"):
            check("no merges (cpu %g, kk %g, forced %g)" % (sc[S_MERGES], sk[S_MERGES], sk[S_FORCED]),
                  sc[S_MERGES] + sk[S_MERGES] + sk[S_FORCED], 0.5)
        else:
            check("merges (cpu %g, kk %g)" % (sc[S_MERGES], sk[S_MERGES]),
                  abs(sc[S_MERGES] - sk[S_MERGES]), 0.5)
        if c["expect"].get("forced_merges"):
            check("merges forced by the capacity (%g)" % sk[S_FORCED], -sk[S_FORCED], -100)
    return checks


def correctness(runner, results, save, cases, control):
    failed = False
    chosen = [c for c in CORRECTNESS if re.search(cases, c["name"])] + ([CONTROL] if control else [])
    # the CPU runs need no GPU: they run side by side on the host's cores while the Kokkos runs
    # take the GPU one after the other
    workers = max(1, min(8, (os.cpu_count() or 2) // 2))
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        cpu_runs = [pool.submit(run_side, runner, c, False) for c in chosen]
        for c, cpu_run in zip(chosen, cpu_runs):
            failed |= correctness_case(runner, results, save, c, cpu_run)
    return failed


def correctness_case(runner, results, save, c, cpu_run):
    """Compare case c's Kokkos run with its CPU run (a future); True if it failed."""
    entry = {"case": c["name"]}
    try:
        kk = run_side(runner, c, True)
        cpu = cpu_run.result()
        entry["checks"] = compare(c, cpu, kk)
        entry["passed"] = all(ok for _, _, _, ok in entry["checks"])
    except (RuntimeError, OSError, ValueError, KeyError, IndexError,
            subprocess.TimeoutExpired) as e:
        entry["error"] = str(e)[-1500:]
        entry["passed"] = False
    if c is CONTROL:    # the control must fail its force comparison, and nothing else go wrong
        entry["passed"] = "error" not in entry and any(
            w == "forces" and not ok for w, _, _, ok in entry["checks"])
    results["correctness"].append(entry)
    print("correctness %-44s %s" % (c["name"], "passed" if entry["passed"] else "FAILED"),
          flush=True)
    if not entry["passed"]:
        for what, value, limit, ok in entry.get("checks", []):
            if not ok:
                print("    %s: %.3g (limit %.3g)" % (what, value, limit), flush=True)
        if "error" in entry:
            print("    " + entry["error"], flush=True)
    save()
    return not entry["passed"]


# --- throughput -------------------------------------------------------------------------------
CHUTE_STYLES = [("gran/hooke/history/kk", bench.HOOKE), ("gran/kuhn/kk", bench.KUHN),
                ("gran/jaeger/kk", bench.JAEGER.format(""))]


def chute_input(lammps_src, pair, replicate, warm, steps):
    src = open(os.path.join(lammps_src, "bench", "in.chute")).read()
    new = re.sub(r"pair_style\s+gran/hooke/history.*\npair_coeff\s+\* \*", pair, src)
    if new == src and "gran/hooke/history 200000.0" not in pair:
        raise RuntimeError("in.chute: no pair_style line to replace")
    src = new
    nx, ny = replicate.split("x")
    if replicate != "1x1":
        src = src.replace("read_data       data.chute",
                          "read_data       data.chute\nreplicate %s %s 1" % (nx, ny))
    if not re.search(r"run\s+100\s*$", src):
        raise RuntimeError("in.chute: no final `run 100`")
    return re.sub(r"run\s+100\s*$", "thermo %d\nrun %d\nrun %d\n" % (max(steps, warm), warm, steps), src)


class GpuMemory:
    """Peak of nvidia-smi's memory.used (MiB) while a run lasts, less the value before it."""

    def __init__(self):
        self.smi = shutil.which("nvidia-smi")

    def read(self):
        try:
            out = subprocess.run([self.smi, "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                                 capture_output=True, text=True, timeout=5).stdout
            return float(out.split()[0])
        except (OSError, ValueError, IndexError, subprocess.SubprocessError):
            return None

    def __enter__(self):
        self.base = self.read() if self.smi else None
        self.peak = self.base
        self.stop = threading.Event()
        if self.base is not None:
            self.thread = threading.Thread(target=self.poll, daemon=True)
            self.thread.start()
        return self

    def poll(self):
        while not self.stop.wait(0.2):
            v = self.read()
            if v is not None:
                self.peak = max(self.peak, v)

    def __exit__(self, *exc):
        self.stop.set()
        if self.base is not None:
            self.thread.join()

    def used(self):
        return None if self.base is None else self.peak - self.base


def throughput_case(runner, args, label, pair, size, replicate, warm, steps, timeout):
    cwd = os.path.join(runner.work, "throughput", re.sub(r"[^A-Za-z0-9.]+", "_", label + "_" + size))
    shutil.rmtree(cwd, ignore_errors=True)
    os.makedirs(cwd)
    os.symlink(os.path.join(os.path.abspath(args.lammps_src), "bench", "data.chute"),
               os.path.join(cwd, "data.chute"))
    with GpuMemory() as mem:
        out = runner.run(label + " " + size, chute_input(args.lammps_src, pair, replicate, warm, steps),
                         True, cwd, timeout=timeout)
    loops = re.findall(r"Loop time of ([0-9.eE+-]+) on \d+ procs for (\d+) steps with (\d+) atoms", out)
    if len(loops) < 2:
        raise RuntimeError("no loop time in the output of %s %s" % (label, size))
    secs, n, atoms = float(loops[-1][0]), int(loops[-1][1]), int(loops[-1][2])
    mem_lmp = re.findall(r"Per MPI rank memory allocation \(min/avg/max\) = [0-9.]+ \| [0-9.]+ \| ([0-9.]+) Mbytes", out)
    return {"style": label, "system": size, "atoms": atoms, "steps": n, "loop_s": secs,
            "atom_steps_per_s": atoms * n / secs if secs > 0 else None,
            "gpu_mib": mem.used(), "lammps_mbytes": float(mem_lmp[-1]) if mem_lmp else None}


def throughput(runner, args, results, save, deadline):
    sizes = [("chute 32k", "1x1", args.small_warm, args.small_steps)]
    if args.big != "none":
        sizes.append(("chute %s" % args.big, args.big, args.big_warm, args.big_steps))
    rate = {}
    for size, replicate, warm, steps in sizes:
        for label, pair in CHUTE_STYLES:
            left = deadline - time.time()
            nx, ny = (int(v) for v in replicate.split("x"))
            atoms = 32000 * nx * ny
            # predicted from the small chute's rate of the same style, plus a set-up allowance
            need = 20 + (atoms * (warm + steps) / rate[label] if label in rate else 30)
            if left < need:
                entry = {"style": label, "system": size, "skipped": "%.0f s left, about %.0f s needed" % (left, need)}
                print("throughput %-22s %-14s skipped (%s)" % (label, size, entry["skipped"]), flush=True)
            else:
                try:
                    entry = throughput_case(runner, args, label, pair, size, replicate, warm, steps,
                                            timeout=max(left - 5, 10))
                    rate.setdefault(label, entry["atom_steps_per_s"])
                    print("throughput %-22s %-14s %.3g atom-steps/s, GPU memory %s MiB" % (
                        label, size, entry["atom_steps_per_s"], entry["gpu_mib"]), flush=True)
                except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                    entry = {"style": label, "system": size, "error": str(e)[-1500:]}
                    print("throughput %-22s %-14s FAILED: %s" % (label, size, entry["error"]), flush=True)
            results["throughput"].append(entry)
            save()


# --- the report -------------------------------------------------------------------------------
def markdown(results):
    lines = ["# GPU checks: %s" % results.get("device", "?"), "",
             "%s; %s" % (results.get("date", "?"), results.get("kokkos_args", "")), "",
             "## Correctness: Kokkos style against the CPU style", "",
             "hooke/history: LAMMPS's gran/hooke/history/kk against gran/hooke/history, the "
             "harness's reference; control: the comparison must fail it.", "",
             "| case | passed | largest difference: forces, torques | checks failed |",
             "|---|---|---|---|"]
    for e in results["correctness"]:
        byname = {w: v for w, v, _, _ in e.get("checks", [])}
        diffs = "%.2g, %.2g" % (byname["forces"], byname["torques"]) if "forces" in byname else "-"
        bad = "; ".join("%s %.3g (limit %.3g)" % (w, v, l) for w, v, l, ok in e.get("checks", []) if not ok)
        if "error" in e:
            bad = (bad + "; " if bad else "") + "error: " + e["error"].replace("|", "/")[-300:]
        lines.append("| %s | %s | %s | %s |" % (e["case"], "yes" if e["passed"] else "**NO**", diffs, bad or "none"))
    lines += ["", "## Throughput (chute, LAMMPS bench/in.chute)", "",
              "GPU memory: the peak of nvidia-smi's memory.used during the run less its value "
              "before (the CUDA context included); LAMMPS memory: its own per-rank figure.", "",
              "| style | system | atoms | steps | loop time (s) | atom-steps/s | GPU memory (MiB) | LAMMPS memory (MB) |",
              "|---|---|---|---|---|---|---|---|"]
    for e in results["throughput"]:
        if "atom_steps_per_s" in e:
            lines.append("| %s | %s | %d | %d | %.3f | %.4g | %s | %s |" % (
                e["style"], e["system"], e["atoms"], e["steps"], e["loop_s"], e["atom_steps_per_s"],
                "%.0f" % e["gpu_mib"] if e["gpu_mib"] is not None else "n/a",
                "%.1f" % e["lammps_mbytes"] if e["lammps_mbytes"] is not None else "n/a"))
        else:
            lines.append("| %s | %s | | | | %s | | |" % (e["style"], e["system"],
                                                      e.get("skipped") or "FAILED: " + e.get("error", "")[-200:].replace("|", "/")))
    ratios = time_ratios(results)
    if ratios:
        lines += ["", "Loop time per atom-step, ratio to gran/hooke/history/kk on the same system:", ""]
        lines += ["- %s, %s: x%.2f" % (style, system, r) for style, system, r in ratios]
    return "\n".join(lines) + "\n"


def time_ratios(results):
    ref = {e["system"]: e for e in results["throughput"]
           if e.get("atom_steps_per_s") and e["style"] == "gran/hooke/history/kk"}
    out = []
    for e in results["throughput"]:
        if e.get("atom_steps_per_s") and e["style"] != "gran/hooke/history/kk" and e["system"] in ref:
            out.append((e["style"], e["system"], ref[e["system"]]["atom_steps_per_s"] / e["atom_steps_per_s"]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lmp", required=True, help="the LAMMPS executable")
    p.add_argument("--plugin-dir", required=True, help="the folder of demcontactplugin.so")
    p.add_argument("--lammps-src", required=True, help="LAMMPS source top (bench/in.chute, bench/data.chute)")
    p.add_argument("--out", required=True, help="results folder")
    p.add_argument("--work", required=True, help="scratch folder for the runs")
    p.add_argument("--kokkos", default="g 1", help="arguments of -k on (default 'g 1'; on a CPU: 't 1')")
    p.add_argument("--device", default="", help="the device's name for the report")
    p.add_argument("--part", choices=["all", "correctness", "throughput"], default="all")
    p.add_argument("--cases", default="", help="only the correctness cases whose name matches this regex")
    p.add_argument("--control", action="store_true",
                   help="also the negative control (passes when the comparison fails it)")
    p.add_argument("--deadline", type=float, default=0, help="seconds from now the checks must end in")
    p.add_argument("--small-warm", type=int, default=100)
    p.add_argument("--small-steps", type=int, default=1000)
    p.add_argument("--big", default="6x6", help="replication of the chute in x and y, or none")
    p.add_argument("--big-warm", type=int, default=50)
    p.add_argument("--big-steps", type=int, default=300)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    deadline = time.time() + (args.deadline or 1e9)
    results = {"device": args.device, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "kokkos_args": "-k on %s -sf kk -pk kokkos neigh half newton off" % args.kokkos,
               "correctness": [], "throughput": []}

    def save():
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(results, f, indent=1)
        with open(os.path.join(args.out, "results.md"), "w") as f:
            f.write(markdown(results))

    runner = Runner(args)
    failed = False
    if args.part in ("all", "correctness"):
        failed = correctness(runner, results, save, args.cases, args.control)
    if args.part in ("all", "throughput"):
        throughput(runner, args, results, save, deadline)
    save()
    print(markdown(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
