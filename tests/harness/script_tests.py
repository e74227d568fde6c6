"""Tests of the project's own scripts on bad input (issue 2): each must stop
early with a clear message and a non-zero exit, and leave nothing
half-written behind."""

import os
import shutil
import subprocess
import tempfile

import guest as g
from suite import test

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(argv, env=None, timeout=300):
    p = subprocess.run(argv, cwd=ROOT, env=dict(os.environ, **(env or {})),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    for line in p.stdout.splitlines()[-6:]:
        print("#   " + line)
    return p.returncode, p.stdout


def expect_error(argv, message, env=None):
    status, out = run(argv, env)
    if status == 0:
        raise g.GuestError("%s succeeded" % " ".join(argv))
    if message not in out:
        raise g.GuestError("%s: no %r in its output" % (" ".join(argv), message))


@test("scripts/setup-not-root", 30)
def check_setup_not_root(timeout):
    expect_error(["setpriv", "--reuid=65534", "--regid=65534",
                  "--clear-groups", "scripts/setup"], "must run as root")


@test("scripts/run-unknown-names", 30)
def check_run_unknown_names(timeout):
    expect_error(["scripts/run", "no-such-board", "debian"],
                 "unknown board 'no-such-board'")
    expect_error(["scripts/run", "beaglebone-black", "no-such-kernel"],
                 "unknown kernel 'no-such-kernel'")


def scratch_root():
    """A copy of scripts/ and patches/ in a new directory, so that
    scripts/build there starts from nothing: no build/, no cache."""
    top = tempfile.mkdtemp(prefix="am335x-scripts-")
    for d in ("scripts", "patches"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(top, d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return top


def check_build_fails(top, message, env):
    try:
        expect_error([os.path.join(top, "scripts", "build")], message,
                     dict(env, AM335X_CACHE=os.path.join(top, "cache")))
        # No build tree, and nothing (not even a partial tarball) in the
        # download cache.
        dl = os.path.join(top, "cache", "downloads")
        left = ["build"] if os.path.exists(os.path.join(top, "build")) else []
        left += os.listdir(dl) if os.path.isdir(dl) else []
        if left:
            raise g.GuestError("left behind: %s" % left)
    finally:
        shutil.rmtree(top, ignore_errors=True)


@test("scripts/build-archive-unreachable", 60)
def check_build_unreachable(timeout):
    top = scratch_root()
    conf = os.path.join(top, "apt.conf")
    with open(conf, "w") as f:
        # A proxy on a closed port: apt cannot reach any archive.
        f.write('Acquire::http::Proxy "http://127.0.0.1:9";\n'
                'Acquire::https::Proxy "http://127.0.0.1:9";\n')
    check_build_fails(top, "could not fetch the QEMU source",
                      {"APT_CONFIG": conf})


@test("scripts/build-checksum-mismatch", 300)
def check_build_checksum(timeout):
    top = scratch_root()
    path = os.path.join(top, "scripts", "qemu-version")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write("\n".join("QEMU_ORIG_SHA256=" + "0" * 64
                          if line.startswith("QEMU_ORIG_SHA256=") else line
                          for line in text.splitlines()) + "\n")
    check_build_fails(top, "checksum mismatch", {})
