"""Where a timed guest's virtual time went: the CPU model's profile
(plugins/cortex-a8-timing.c, profile=FILE: per translated block's start
address, its instructions and the stall charged while it ran) named with
the guest kernel's text symbols (/proc/kallsyms).  Used by
scripts/profile and scripts/bench --profile."""

import bisect
import os
import re
import threading

import guest as g

_symbols_lock = threading.Lock()
# Further from its symbol than this, an address is in no function we know
# (the kernel's largest functions are a few KiB)
MAX_FUNCTION = 1 << 20
# The Arm high vectors, where the kernel's exception entry stubs run
VECTORS = 0xffff0000
# Below the kernel's lowest symbol: user space (PAGE_OFFSET on these
# kernels is 0xc0000000; the symbols start just above it)


class ProfileError(Exception):
    pass


def kernel_symbols(kernel, path, board="beaglebone-black", timeout=120):
    """PATH, the text lines of KERNEL's /proc/kallsyms, made by booting it
    (without the timing models, it is quicker) unless PATH is newer than
    the kernel.  The addresses are those of every boot of that kernel:
    32-bit Arm has no KASLR, and the am335x kernel loads no modules (the
    Debian kernel's depend on their load order)."""
    image = os.path.join(g.kernel_dir(kernel), "uImage")
    with _symbols_lock:
        if os.path.exists(path) and \
                os.path.getmtime(path) >= os.path.getmtime(image):
            return path
        with g.Guest(board, kernel, earlycon=False,
                     name="kallsyms-" + kernel) as vm:
            vm.wait_ready()
            status, text = vm.shell("grep ' [tT] ' /proc/kallsyms", timeout)
        if status != 0:
            raise ProfileError("%s: no /proc/kallsyms" % kernel)
        parse_symbols(text)
        with open(path + ".tmp", "w") as f:
            f.write(text.replace("\r", ""))
        os.replace(path + ".tmp", path)
    return path


def parse_symbols(text):
    """[(address, name)] sorted, from kallsyms text ("c0100000 T name
    [module]"); text symbols only."""
    syms = []
    for line in text.splitlines():
        f = line.split()
        if len(f) < 3 or f[1] not in ("t", "T"):
            continue
        try:
            addr = int(f[0], 16)
        except ValueError:
            continue
        name = f[2] + (" " + f[3] if len(f) > 3 else "")
        syms.append((addr, name))
    if not syms:
        raise ProfileError("no text symbols (lines 'ADDRESS t|T NAME')")
    syms.sort()
    return syms


def parse_profile(text):
    """(ps per instruction, [(pc, insns, stall ns)]) from the plugin's
    profile file."""
    m = re.match(r"# cortex-a8-timing profile: ps_per_insn=(\d+)\n"
                 r"pc\tinsns\tstall_ns\n", text)
    if not m:
        raise ProfileError("not a cortex-a8-timing profile (no header)")
    rows = []
    for n, line in enumerate(text.splitlines()[2:], 3):
        f = line.split("\t")
        try:
            rows.append((int(f[0], 16), int(f[1]), int(f[2])))
        except (ValueError, IndexError):
            raise ProfileError("line %d: %r" % (n, line))
    return int(m.group(1)), rows


def attribute(rows, ps_per_insn, syms):
    """{name: [time ns, instructions, stall ns]} for the profile's rows."""
    addrs = [a for a, _ in syms]
    out = {}
    for pc, insns, stall_ns in rows:
        i = bisect.bisect_right(addrs, pc) - 1
        if pc >= VECTORS:
            name = "[vectors]"
        elif i < 0:
            name = "[user]"
        elif pc - addrs[i] > MAX_FUNCTION:
            name = "[unknown]"
        else:
            name = syms[i][1]
        e = out.setdefault(name, [0, 0, 0])
        e[0] += insns * ps_per_insn // 1000 + stall_ns
        e[1] += insns
        e[2] += stall_ns
    return out


def report(profile_text, symbols_text, top=40, baseline_text=None):
    """The profile as a table, most expensive first; less BASELINE's, if
    given (a shorter run of the same work isolates what the extra work
    cost: boot and set-up cancel out)."""
    ps_per_insn, rows = parse_profile(profile_text)
    syms = parse_symbols(symbols_text)
    table = attribute(rows, ps_per_insn, syms)
    if baseline_text is not None:
        base_ps, base_rows = parse_profile(baseline_text)
        if base_ps != ps_per_insn:
            raise ProfileError("the baseline ran at %d ps per instruction, "
                               "the profile at %d" % (base_ps, ps_per_insn))
        for name, e in attribute(base_rows, base_ps, syms).items():
            t = table.setdefault(name, [0, 0, 0])
            for i in range(3):
                t[i] -= e[i]
    total = sum(e[0] for e in table.values()) or 1
    insns = sum(e[1] for e in table.values())
    stall = sum(e[2] for e in table.values())
    lines = ["CPU time %.3f s: instructions %.3f s (%d at %g ns), "
             "stalls %.3f s" % (total / 1e9, insns * ps_per_insn / 1e12,
                                insns, ps_per_insn / 1000, stall / 1e9),
             "%10s %6s %10s %10s  %s" % ("ms", "%", "insns", "stall ms",
                                          "symbol")]
    for name, (t, n, s) in sorted(table.items(),
                                  key=lambda kv: (-kv[1][0], kv[0]))[:top]:
        lines.append("%10.3f %6.2f %10d %10.3f  %s"
                     % (t / 1e6, 100.0 * t / total, n, s / 1e6, name))
    return "\n".join(lines) + "\n"
