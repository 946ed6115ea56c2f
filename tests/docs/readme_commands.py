#!/usr/bin/env python3
"""Runs the README's command examples, so that a renamed or removed option cannot leave the README behind.

Which blocks run: every fenced ```sh block of README.md whose commands (after joining backslash continuations and
leaving out comment and blank lines) all start with `dirbench-cli`. A block with any other command (one that
installs, packages, runs the test suite, or sets variables with eval) is skipped by that rule. A block that needs
what a build machine cannot give (ssh hosts, a cloud VM, Kubernetes) is marked with the HTML comment
`<!-- not run by tests/docs: REASON -->` on the line right above it, and is skipped with that reason. Every skip is
printed.

How they run: against a real sandbox, `dirbench-cli sandbox start --entries 1000` (its KEY=value lines become the
blocks' environment: URI, BIND_DN, PASSWORD_FILE, BASE, PEOPLE_BASE, DIR, ...); a block that names REPLICA1_URI
gets one started with `--replicas 1`, and a block that names ACCESS_LOG one started with `--access-log`, whose log
holds one second of a 200/s search load the test runs first. `sandbox stop --dir` ends each at the end, always.
Durations are cut to 1 s (`--duration N`, `--seconds-per-point N`), warm-ups to 0 (`--warmup`, and `--lead` of
`disk --under-load`), and a disk test's `--dir` goes to a scratch directory with a 64 MiB file (`--size`). Each block runs with `bash -e` in one scratch working directory
shared by all blocks in README order (a block may read a file an earlier one wrote), with a private history
database and a timeout; a block that exits non-zero fails the test, which prints the block and its output.

Usage: readme_commands.py SOURCE_DIR DIRBENCH_CLI
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MARK = re.compile(r"^<!--\s*not run by tests/docs:\s*(.+?)\s*-->\s*$")
BLOCK_TIMEOUT_S = 40
SIZE = "64M"


def blocks_of(readme):
    """(line number, marker reason or None, lines) for every ```sh block."""
    lines = readme.splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            above = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
            m = MARK.match(above.strip())
            out.append((start, m.group(1) if m else None, lines[start:j]))
            i = j + 1
        else:
            i += 1
    return out


def commands_of(lines):
    """The block's commands: continuations joined, comment and blank lines left out."""
    cmds, cur = [], ""
    for line in lines:
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        cur += line
        cmds.append(" ".join(cur.split()))
        cur = ""
    if cur:
        cmds.append(" ".join(cur.split()))
    return cmds


def shorten(cmd, disk_dir):
    """The command with its durations cut to 1 s, warm-ups to 0, and a disk test on a small scratch file."""
    cmd = re.sub(r"(--duration|--seconds-per-point)[ =]\S+", r"\1 1", cmd)
    cmd = re.sub(r"--warmup[ =]\S+", "--warmup 0", cmd)
    cmd = re.sub(r"--lead[ =]\S+", "--lead 0", cmd)
    if "--under-load" in cmd and "--lead" not in cmd:
        cmd += " --lead 0"  # the LDAP load's lead before the loaded disk test defaults to 2 s
    if re.match(r"dirbench-cli\s+(curve|experiment)\b", cmd) and "--warmup" not in cmd:
        cmd += " --warmup 0"  # their warm-up before each point defaults to 5 s
    if re.match(r"dirbench-cli\s+disk\b", cmd):
        cmd = re.sub(r"--dir[ =]\S+", "--dir " + shlex.quote(disk_dir), cmd)
        if re.search(r"--size[ =]", cmd):
            cmd = re.sub(r"--size[ =]\S+", "--size " + SIZE, cmd)
        elif not re.search(r"--profile[ =]dd\b", cmd):
            cmd = re.sub(r"^dirbench-cli\s+disk\b", "dirbench-cli disk --size " + SIZE, cmd)
    return cmd


def start_sandbox(cli, parent, env, extra):
    args = [cli, "sandbox", "start", "--entries", "1000", "--dir", parent] + extra
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    values = {}
    for line in p.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and re.fullmatch(r"[A-Z][A-Z0-9_]*", key):
            values[key] = shlex.split(value)[0] if value.startswith(("'", '"')) else value
    if "URI" not in values or "DIR" not in values:
        raise RuntimeError("sandbox start printed no URI or DIR:\n" + p.stdout)
    return values


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1])
        return 2
    src, cli = sys.argv[1], os.path.abspath(sys.argv[2])
    began = time.monotonic()
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        blocks = blocks_of(f.read())

    scratch = tempfile.mkdtemp(prefix="dirbench-readme-")
    work, disk_dir, bindir = (os.path.join(scratch, d) for d in ("work", "disk", "bin"))
    for d in (work, disk_dir, bindir):
        os.mkdir(d)
    os.symlink(cli, os.path.join(bindir, "dirbench-cli"))  # the blocks' `dirbench-cli` is this build's
    env = dict(os.environ)
    env.update(PATH=bindir + os.pathsep + env.get("PATH", ""), QT_QPA_PLATFORM="offscreen",
               DIRBENCH_HISTORY=os.path.join(scratch, "history.sqlite"))
    env.pop("DIRBENCH_PASSWORD", None)
    sandboxes = []

    def stop_all(*_):
        for sb in sandboxes:
            subprocess.run([cli, "sandbox", "stop", "--dir", sb["DIR"]], env=env, capture_output=True, timeout=60)
        sandboxes.clear()
        shutil.rmtree(scratch, ignore_errors=True)

    def on_signal(signum, _frame):
        stop_all()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    failed = ran = 0
    try:
        main_sb = start_sandbox(cli, scratch, env, [])
        sandboxes.append(main_sb)
        extra = {}  # sandboxes started for the blocks that need them, by the variable they need

        def sandbox_for(cmds):
            for var, args in (("REPLICA1_URI", ["--replicas", "1"]), ("ACCESS_LOG", ["--access-log"])):
                if not any(var in c for c in cmds):
                    continue
                if var not in extra:
                    sb = start_sandbox(cli, scratch, env, args)
                    sandboxes.append(sb)
                    extra[var] = sb
                    if var == "ACCESS_LOG":  # something to analyse and replay: one second of searches
                        subprocess.run([cli, "ldap", "search", "--uri", sb["URI"], "--bind-dn", sb["BIND_DN"],
                                        "--password-file", sb["PASSWORD_FILE"], "--base", sb["PEOPLE_BASE"],
                                        "--filter", "uid=user[0-999]", "--rate", "200", "--duration", "1",
                                        "--quiet", "--no-history"], env=env, capture_output=True, timeout=60,
                                       check=True)
                return extra[var]
            return main_sb

        for line, reason, lines in blocks:
            cmds = commands_of(lines)
            where = "README.md:%d" % line
            if reason:
                print("skipped %s (marked): %s" % (where, reason))
                continue
            others = [c for c in cmds if not re.match(r"dirbench-cli(\s|$)", c)]
            if not cmds or others:
                print("skipped %s (a command that is not dirbench-cli: %s)" % (where, (others or ["empty"])[0][:60]))
                continue
            block_env = dict(env)
            block_env.update(sandbox_for(cmds))
            script = "\n".join(shorten(c, disk_dir) for c in cmds) + "\n"
            t0 = time.monotonic()
            try:
                p = subprocess.run(["bash", "-e", "-c", script], cwd=work, env=block_env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=BLOCK_TIMEOUT_S)
                rc, output = p.returncode, p.stdout
            except subprocess.TimeoutExpired as e:
                rc, output = "timeout after %d s" % BLOCK_TIMEOUT_S, (e.output or b"").decode(errors="replace")
            ran += 1
            seconds = time.monotonic() - t0
            if rc == 0:
                print("ran %s in %.1f s: %d command(s)" % (where, seconds, len(cmds)))
                continue
            failed += 1
            print("FAILED %s (exit %s, %.1f s). The block as run:" % (where, rc, seconds))
            print("".join("    " + c + "\n" for c in script.splitlines()))
            print("  its output:")
            print("".join("    " + c + "\n" for c in output.splitlines()[-60:]))
    finally:
        stop_all()
    print("readme_commands: %d block(s) run, %d failed, %d skipped, %.1f s"
          % (ran, failed, len(blocks) - ran, time.monotonic() - began))
    if ran < 5:
        print("readme_commands: fewer than 5 blocks ran: the README's examples were not found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
