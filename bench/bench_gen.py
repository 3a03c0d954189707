#!/usr/bin/env python3
"""rocewire-gen against dpdk-testpmd's txonly mode, in the same run.

    bench/bench_gen.py BUILD_DIR [SECONDS]

One forwarding lcore each (EAL -l 0-1: the main lcore and one worker), no
hugepages. testpmd sends one fixed UDP template and computes nothing;
rocewire-gen sends RoCEv2 conversations where every packet has its own PSN
and a correct ICRC. Frame sizes are matched: 62-byte frames (a UC SEND of 4
bytes; testpmd --txpkts=62), 1,098-byte frames (a UC WRITE of 1 KiB) and
4,170-byte frames (a UC WRITE of 4 KiB at MTU 4096). The last column is the
rate one lcore would put on an Ethernet wire (frame + FCS, preamble and gap),
against a 100 GbE port's line rate. Ports: net_null (the generator alone) and net_pcap into a file
(what the default run does). Each rate is packets sent over the time from the
start of sending to SIGINT; the best of ROUNDS (default 3) runs.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

EAL = ["--no-huge", "-m", "1024", "--no-pci", "--no-shconf", "-l", "0-1", "--log-level=*:error"]

SCEN = """name: bench-{name}
line_rate: 100Gbps
hosts:
  - {{name: a, mac: "02:00:00:00:00:01", ip: 10.0.0.1}}
  - {{name: b, mac: "02:00:00:00:00:02", ip: 10.0.0.2}}
flows:
  - name: f
    from: a
    to: b
    transport: uc
    ops: {op}
    size: {size}
    mtu: 4096
    rate: line
    qps: 16
    src_qpn: 0x100
    dst_qpn: 0x200
"""


def run_timed(cmd, seconds, start_marker):
    """Runs cmd, sends SIGINT `seconds` after start_marker appears on its
    output, returns (output, sending_seconds)."""
    # stdin open and silent: testpmd stops at end of file on it
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    t_start = None
    fd = p.stdout.fileno()
    os.set_blocking(fd, False)
    deadline = time.monotonic() + 60
    buf = ""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            chunk = b""
        if chunk:
            buf += chunk.decode("utf-8", "replace")
            if t_start is None and start_marker in buf:
                t_start = time.monotonic()
        if t_start is not None and time.monotonic() - t_start >= seconds:
            break
        if p.poll() is not None:
            break
        if time.monotonic() > deadline:
            p.kill()
            raise RuntimeError("no start: " + " ".join(cmd) + "\n" + buf[-2000:])
        time.sleep(0.01)
    t_stop = time.monotonic()
    p.send_signal(signal.SIGINT)
    os.set_blocking(fd, True)
    rest, _ = p.communicate(timeout=60)
    buf += (rest or b"").decode("utf-8", "replace")
    return buf, (t_stop - t_start) if t_start else None


def testpmd(frame, vdev, seconds):
    mbuf = max(2176, frame + 256)
    # --mbuf-size before --txpkts: testpmd checks the packet length against
    # the mbuf size known when it parses --txpkts, and falls back to 64-byte
    # packets ("give up") when that is still the default 2176
    cmd = ["stdbuf", "-oL", "dpdk-testpmd", *EAL, vdev, "--", "--forward-mode=txonly",
           f"--mbuf-size={mbuf}", f"--txpkts={frame}", "--burst=32"]
    out, dt = run_timed(cmd, seconds, "txonly packet forwarding packets/burst")
    if "give up" in out or f"packet len={frame}" not in out:
        raise RuntimeError(f"testpmd did not take --txpkts={frame}:\n" + out[-2000:])
    m = re.findall(r"TX-packets:\s+(\d+)", out.replace("\r", "\n"))
    if not m or not dt:
        raise RuntimeError("testpmd: no TX count:\n" + out[-2000:])
    return int(m[-1]) / dt


def gen(gen_bin, scen, vdev, seconds, tmp):
    js = os.path.join(tmp, "sum.json")
    cmd = [gen_bin, *EAL, vdev, "--", "--pace", "none", "-d", "3600s",
           "--status", "--summary-json", js, scen]
    out, _ = run_timed(cmd, seconds, "Mpps")
    with open(js) as f:
        s = json.load(f)
    return s["packets"] / s["duration_s"], s


def best(k, fn):
    return max(fn() for _ in range(k))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    gen_bin = os.path.join(build, "gen", "rocewire-gen")
    if not os.access(gen_bin, os.X_OK):
        print(f"bench_gen: {gen_bin} not built (DPDK off?)", file=sys.stderr)
        return 1
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rw-bench-gen.") as tmp:
        cases = [("62 B frames (UC SEND 4 B)", 62, "send", "4"),
                 ("1098 B frames (UC WRITE 1 KiB)", 1098, "write", "1KiB"),
                 ("4170 B frames (UC WRITE 4 KiB)", 4170, "write", "4KiB")]
        rows = []
        for label, frame, op, size in cases:
            scen = os.path.join(tmp, f"{op}.yaml")
            with open(scen, "w") as f:
                f.write(SCEN.format(name=op, op=op, size=size))
            for port, vdev_of in [("net_null", lambda: "--vdev=net_null0"),
                                  ("net_pcap file", lambda: "--vdev=net_pcap0,tx_pcap=" +
                                   os.path.join(tmp, "out.pcap"))]:
                tp = best(rounds, lambda: testpmd(frame, vdev_of(), seconds))
                g = best(rounds, lambda: gen(gen_bin, scen, vdev_of(), seconds, tmp)[0])
                rows.append((label, port, tp, g))
                try:
                    os.unlink(os.path.join(tmp, "out.pcap"))
                except FileNotFoundError:
                    pass
        print("| frames | port | dpdk-testpmd txonly | rocewire-gen | ratio | rocewire-gen on the wire |")
        print("| --- | --- | --- | --- | --- | --- |")
        for label, port, tp, g in rows:
            frame = int(label.split()[0])
            # on an Ethernet wire a frame also takes its FCS, preamble and
            # inter-frame gap: 24 bytes
            gbps = g * (frame + 24) * 8 / 1e9
            print(f"| {label} | {port} | {tp / 1e6:.2f} Mpps | {g / 1e6:.2f} Mpps | {g / tp:.2f}x "
                  f"| {gbps:.0f} Gb/s ({gbps / 100:.2f}x 100GbE line rate) |")
        # the machine's load, since a shared machine moves both columns
        load1 = os.getloadavg()
        print(f"\n{os.cpu_count()} CPUs; load average {load0[0]:.2f} at the start, "
              f"{load1[0]:.2f} at the end; best of {rounds} rounds of {seconds:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
