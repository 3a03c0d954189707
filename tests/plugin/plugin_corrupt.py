#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Wireshark plugin fuzzed with corrupted captures, under ASan and UBSan.

Copies of the bases (samples/*.pcap but ib-native.pcap, which tshark 4.0
cannot open; samples/softroce/*.pcap; rocewire-mkcap --all-opcodes on
Ethernet, ERF and SLL2, --mix, --bad and --pfc; rocewire-madcap's two
captures) are corrupted by `editcap -E 0.02 --seed SEED`: file number i is
base i mod len(bases) with seed SEED0 + i. They are read through tshark
with the sanitized plugin (rocewire_plugin_asan: ASan+UBSan, plugin and
librocewire both; tshark is not instrumented and runs with the compiler's
ASan runtime in LD_PRELOAD, detect_leaks=0 because tshark leaks by design),
as an unprivileged user (tshark as root ignores plugin folders), with -V,
once in one pass and once with -2, and on every third batch with the
plugin's taps too (-z rocewire,qp -z rocewire_qp,tree). The plugin's
analysis is always on.

For speed, BATCH consecutive corrupted files are concatenated
(`mergecap -a`, a pcapng with one interface per link type) and each batch
is one tshark run per mode: tshark's start-up (about 0.3 s of CPU with the
ASan runtime) would otherwise cost more than the packets. The plugin then
also sees one capture's flows continue in the next, time going backwards.

Pass: no tshark run ends on a signal or hangs (RUN_TIMEOUT), and its standard error holds no
sanitizer report ("ERROR: AddressSanitizer", "runtime error:", ...).
tshark's own complaints (malformed packets, exit status 2) are fine. A
failing batch is replayed file by file to find the file(s) that fail
alone; each failing file is kept (in KEEP, named by base and seed) and
printed with its base, seed and the command that reproduces it. A batch
whose files pass alone is kept whole with its list.

Then every file under tests/plugin/regressions/*.pcap (inputs that once
failed, kept as they were) is read the same way, uncorrupted.

usage: plugin_corrupt.py [--long]
env (set by tests/plugin/CMakeLists.txt):
  ROCEWIRE_ASAN_PLUGIN_DIR  the folder holding 4.0/epan/rocewire.so (ASan)
  ROCEWIRE_ASAN_RUNTIME     the ASan runtime tshark is started with
  ROCEWIRE_MKCAP, ROCEWIRE_MADCAP, ROCEWIRE_SOURCE_DIR
env (the user's):
  PLUGIN_FUZZ_FILES   number of corrupted files: --long needs it (skip
                      without it); the normal run has 480 (PLUGIN_FUZZ_CI_FILES)
  PLUGIN_FUZZ_SEED    the first seed (normal run: 1; --long: 100000)
  PLUGIN_FUZZ_BATCH   files per tshark run (default 12; 1 reads each alone)
  PLUGIN_FUZZ_JOBS    tshark runs at once (default 2)
  PLUGIN_FUZZ_KEEP    where failing inputs are kept (default
                      ./plugin-fuzz-failures, in the ctest build folder)
Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).
"""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.environ.get("ROCEWIRE_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
PLUGIN_DIR = os.environ.get("ROCEWIRE_ASAN_PLUGIN_DIR", "")
RUNTIME = os.environ.get("ROCEWIRE_ASAN_RUNTIME", "")
MKCAP = os.environ.get("ROCEWIRE_MKCAP", "")
MADCAP = os.environ.get("ROCEWIRE_MADCAP", "")
ERROR_RATE = "0.02"
SAN_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
             "AddressSanitizer:DEADLYSIGNAL", "SUMMARY: AddressSanitizer",
             "SUMMARY: UndefinedBehaviorSanitizer")
# The heuristics on infiniband.payload (plugin_check.py has the same list):
# off, as in the other plugin tests; the built-in dissectors are not what
# this test is after.
NOHEUR = []
for _h in ("rpcrdma_infiniband eth_over_ib fc_infiniband sdp_infiniband iser_infiniband "
           "lnet_ib smb_direct_infiniband smcr_infiniband nvme_rdma").split():
    NOHEUR += ["--disable-heuristic", _h]
MODES = {"one-pass": ["-V"], "two-pass": ["-2", "-V"]}
# One tshark run over a batch takes about a second; a run still going after
# this long is a hang, and fails like a crash.
RUN_TIMEOUT = 180
TAPS = ["-z", "rocewire,qp", "-z", "rocewire_qp,tree"]


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def die(why):
    print("FAIL: " + why)
    sys.exit(1)


def env_int(name, default):
    v = os.environ.get(name, "")
    if v == "":
        return default
    try:
        return int(v)
    except ValueError:
        die("%s is not a number: %r" % (name, v))


class Tshark:
    def __init__(self, work):
        self.work = work
        self.prefix = []
        if os.geteuid() == 0:
            self.prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work,
                    "XDG_CONFIG_HOME": os.path.join(work, ".config"), "LC_ALL": "C",
                    "WIRESHARK_PLUGIN_DIR": PLUGIN_DIR}
        # Only tshark gets the runtime (env after setpriv), and its reports
        # go to standard error, where run() looks.
        self.san_env = ["env", "LD_PRELOAD=" + RUNTIME,
                        "ASAN_OPTIONS=detect_leaks=0:exitcode=99:abort_on_error=0",
                        "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99"]

    def command(self, args):
        return self.prefix + self.san_env + ["tshark"] + args

    def run(self, args):
        """(exit status, or None past RUN_TIMEOUT; standard error)"""
        try:
            r = subprocess.run(self.command(args), env=self.env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, cwd=self.work, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            return None, (e.stderr or b"").decode("utf-8", "replace")
        return r.returncode, r.stderr.decode("utf-8", "replace")

    def read(self, path, mode, taps):
        args = ["-r", path, "-n"] + NOHEUR + MODES[mode] + (TAPS if taps else [])
        rc, err = self.run(args)
        bad = []
        if rc is None:
            bad.append("tshark did not finish in %d s (a loop?)" % RUN_TIMEOUT)
        elif rc < 0:
            bad.append("tshark ended on signal %d" % -rc)
        marks = [m for m in SAN_MARKS if m in err]
        if marks:
            bad.append("sanitizer report (%s)" % ", ".join(marks))
        return bad, err, args

    def repro(self, args):
        """The command line, for the failure message."""
        q = " ".join("'%s'" % a if (" " in a or a == "") else a for a in self.command(args))
        return "WIRESHARK_PLUGIN_DIR=%s HOME=%s %s" % (PLUGIN_DIR, self.work, q)


def bases(work):
    out = []
    for f in sorted(glob.glob(os.path.join(SRC, "samples", "*.pcap"))):
        if os.path.basename(f) != "ib-native.pcap":
            out.append(f)
    out += sorted(glob.glob(os.path.join(SRC, "samples", "softroce", "*.pcap")))
    made = os.path.join(work, "bases")
    os.makedirs(made)
    for name, args in (("mkcap-all-opcodes-eth", ["--all-opcodes", "--max-payload", "512"]),
                       ("mkcap-all-opcodes-erf", ["--all-opcodes", "--linktype", "erf",
                                                  "--max-payload", "512"]),
                       ("mkcap-all-opcodes-sll2", ["--all-opcodes", "--linktype", "sll2",
                                                   "--max-payload", "512"]),
                       ("mkcap-mix", ["--mix", "400"]),
                       ("mkcap-bad", ["--bad"]),
                       ("mkcap-pfc", ["--pfc"])):
        path = os.path.join(made, name + ".pcap")
        r = subprocess.run([MKCAP] + args + ["-o", path], capture_output=True, text=True)
        if r.returncode != 0:
            die("rocewire-mkcap %s: %s" % (" ".join(args), r.stderr.strip()))
        out.append(path)
    mad = os.path.join(made, "madcap")
    os.makedirs(mad)
    r = subprocess.run([MADCAP, mad], capture_output=True, text=True)
    if r.returncode != 0:
        die("rocewire-madcap: %s" % r.stderr.strip())
    for f in sorted(glob.glob(os.path.join(mad, "*.pcap"))):
        dst = os.path.join(made, "madcap-" + os.path.basename(f))
        shutil.move(f, dst)
        out.append(dst)
    return out


def corrupt(base, seed, dst):
    r = subprocess.run(["editcap", "-E", ERROR_RATE, "--seed", str(seed), base, dst],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("editcap -E %s --seed %d %s: %s" % (ERROR_RATE, seed, base,
                                                              r.stderr.strip()))
    os.chmod(dst, 0o644)


def main():
    long_run = "--long" in sys.argv[1:]
    for tool in ("editcap", "mergecap", "tshark"):
        if not shutil.which(tool):
            skip("%s is not installed (apt-get install tshark)" % tool)
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        skip("running as root and setpriv (util-linux) is missing: tshark as root ignores "
             "plugin folders")
    if not RUNTIME or not os.path.isfile(RUNTIME):
        skip("no ASan runtime to preload into tshark (ROCEWIRE_ASAN_RUNTIME=%r)" % RUNTIME)
    if not PLUGIN_DIR or not glob.glob(os.path.join(PLUGIN_DIR, "*", "epan", "rocewire.so")):
        die("no sanitized plugin under ROCEWIRE_ASAN_PLUGIN_DIR=%r" % PLUGIN_DIR)
    for name, tool in (("ROCEWIRE_MKCAP", MKCAP), ("ROCEWIRE_MADCAP", MADCAP)):
        if not tool or not os.access(tool, os.X_OK):
            die("%s is not an executable: %r" % (name, tool))
    if long_run:
        if not os.environ.get("PLUGIN_FUZZ_FILES"):
            skip("the long run is opt in: set PLUGIN_FUZZ_FILES (e.g. 10000)")
        nfiles = env_int("PLUGIN_FUZZ_FILES", 10000)
        seed0 = env_int("PLUGIN_FUZZ_SEED", 100000)
    else:
        nfiles = env_int("PLUGIN_FUZZ_CI_FILES", 480)
        seed0 = env_int("PLUGIN_FUZZ_SEED", 1)
    batch = max(1, env_int("PLUGIN_FUZZ_BATCH", 12))
    jobs = max(1, env_int("PLUGIN_FUZZ_JOBS", 2))
    keep = os.path.abspath(os.environ.get("PLUGIN_FUZZ_KEEP") or "plugin-fuzz-failures")

    work = tempfile.mkdtemp(prefix="rw-plugin-fuzz.")
    os.chmod(work, 0o755)
    try:
        return fuzz(work, nfiles, seed0, batch, jobs, keep)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fuzz(work, nfiles, seed0, batch, jobs, keep):
    ts = Tshark(work)
    bl = bases(work)
    # The sanitized plugin loads from its folder with the runtime preloaded
    # and decodes a clean base. (Not checked with `tshark -G plugins`: with
    # the ASan runtime preloaded that hangs here, whatever the plugin.)
    probe = os.path.join(work, "probe.pcap")
    shutil.copyfile(bl[0], probe)
    os.chmod(probe, 0o644)
    r = subprocess.run(ts.command(["-r", probe, "-Y", "rocewire", "-T", "fields", "-e",
                                   "rocewire.carrier"]),
                       env=ts.env, capture_output=True, text=True, cwd=work, timeout=300)
    if r.returncode != 0 or not r.stdout.strip() or any(m in r.stderr for m in SAN_MARKS):
        die("tshark with the sanitized plugin (%s) and the ASan runtime does not decode %s: "
            "exit %d: %s" % (PLUGIN_DIR, bl[0], r.returncode, r.stderr.strip()[-800:]))
    print("%d bases, %d corrupted files (editcap -E %s, seeds %d..%d), %d per tshark run, "
          "%d runs at once" % (len(bl), nfiles, ERROR_RATE, seed0, seed0 + nfiles - 1, batch, jobs))
    sys.stdout.flush()
    failures = []

    def item(i):
        return bl[i % len(bl)], seed0 + i

    def one_batch(b):
        idx = list(range(b * batch, min(nfiles, (b + 1) * batch)))
        d = os.path.join(work, "b%d" % b)
        os.makedirs(d)
        os.chmod(d, 0o755)
        files = []
        for i in idx:
            base, seed = item(i)
            f = os.path.join(d, "%s.seed%d.pcap" % (os.path.splitext(os.path.basename(base))[0],
                                                    seed))
            corrupt(base, seed, f)
            files.append((f, base, seed))
        if len(files) == 1:
            target = files[0][0]
        else:
            target = os.path.join(d, "batch.pcapng")
            r = subprocess.run(["mergecap", "-a", "-w", target] + [f for f, _, _ in files],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("mergecap: " + r.stderr.strip())
            os.chmod(target, 0o644)
        taps = b % 3 == 0
        found = []
        for mode in MODES:
            bad, err, args = ts.read(target, mode, taps)
            if not bad:
                continue
            found.append(narrow(ts, files, target, mode, taps, bad, err, args, keep, b))
        shutil.rmtree(d, ignore_errors=True)
        return len(files), found

    t0 = time.time()
    nbatches = (nfiles + batch - 1) // batch
    done = 0
    step = max(1, nfiles // 10)
    next_report = step
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for n, found in ex.map(one_batch, range(nbatches)):
            done += n
            failures += found
            if done >= next_report or done == nfiles:
                next_report = done + step
                el = time.time() - t0
                print("  %d/%d files, %.0f s, %.2f files/s" % (done, nfiles, el, done / el))
                sys.stdout.flush()
    el = time.time() - t0
    print("corrupted: %d files in %.0f s, %.2f files/s (two tshark runs per batch of %d)"
          % (nfiles, el, nfiles / el if el else 0, batch))

    regs = sorted(glob.glob(os.path.join(SRC, "tests", "plugin", "regressions", "*.pcap*")))
    for f in regs:
        dst = os.path.join(work, "regression-" + os.path.basename(f))
        shutil.copyfile(f, dst)
        os.chmod(dst, 0o644)
        for mode in MODES:
            for taps in (False, True):
                bad, err, args = ts.read(dst, mode, taps)
                if bad:
                    msg = ("regression %s (%s%s): %s\n%s\n  reproduce: %s"
                           % (f, mode, ", taps" if taps else "", "; ".join(bad),
                              sanitizer_excerpt(err), ts.repro(args)))
                    print("FAIL " + msg)
                    failures.append(msg)
    print("regressions: %d files (tests/plugin/regressions/), each one-pass and -2, with and "
          "without the taps" % len(regs))
    if failures:
        print("FAIL: %d failing run(s); inputs kept in %s" % (len(failures), keep))
        return 1
    print("PASS")
    return 0


def sanitizer_excerpt(err):
    lines = err.splitlines()
    for k, line in enumerate(lines):
        if any(m in line for m in SAN_MARKS):
            return "\n".join("    " + x for x in lines[max(0, k - 2):k + 30])
    return "\n".join("    " + x for x in lines[-15:])


def narrow(ts, files, target, mode, taps, bad, err, args, keep, b):
    """A failing batch: which of its files fail alone; keep them."""
    os.makedirs(keep, exist_ok=True)
    culprits = []
    if len(files) > 1:
        for f, base, seed in files:
            fb, ferr, fargs = ts.read(f, mode, taps)
            if fb:
                culprits.append((f, base, seed, fb, ferr, fargs))
    else:
        f, base, seed = files[0]
        culprits.append((f, base, seed, bad, err, args))
    lines = []
    if culprits:
        for f, base, seed, fb, ferr, fargs in culprits:
            kept = os.path.join(keep, os.path.basename(f))
            shutil.copyfile(f, kept)
            lines.append("%s, seed %d (%s%s): %s\n  kept: %s\n  made by: editcap -E %s --seed %d "
                         "%s OUT\n%s\n  reproduce: %s"
                         % (base, seed, mode, ", taps" if taps else "", "; ".join(fb), kept,
                            ERROR_RATE, seed, base, sanitizer_excerpt(ferr),
                            ts.repro(fargs).replace(f, kept)))
    else:
        kept = os.path.join(keep, "batch%d.pcapng" % b)
        shutil.copyfile(target, kept)
        lines.append("batch %d (%s%s): %s; no file fails alone; kept: %s; its files (base, seed): "
                     "%s\n%s\n  reproduce: %s"
                     % (b, mode, ", taps" if taps else "", "; ".join(bad), kept,
                        ", ".join("%s %d" % (os.path.basename(x), s) for _, x, s in files),
                        sanitizer_excerpt(err), ts.repro(args).replace(target, kept)))
    msg = "\n".join(lines)
    print("FAIL " + msg)
    sys.stdout.flush()
    return msg


if __name__ == "__main__":
    sys.exit(main())
