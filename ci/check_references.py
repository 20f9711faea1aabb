#!/usr/bin/env python3
"""Tracked files speak the project's own terms: no references a reader of the repository cannot follow.

    python3 ci/check_references.py [DIR]       scan the files git tracks in DIR (default: this repository)
    python3 ci/check_references.py --self-test plant one example of each rule in a temporary copy of the
                                               repository and expect each to be found (and the allowed look-alikes
                                               not to be)

Found, with the file and line: numbers of our own tickets and working rounds, branch names, a source report left
unnamed ("the ... report" without saying which), lock tools of a measuring machine, and absolute paths of a particular machine
(home, work and mount folders; system locations such as /usr, /etc, /proc, /tmp, /dev, /sys, /opt, /var, /bin are
fine). Public upstream references stay allowed and useful: "spring-cloud-gateway#4209", "reactor/reactor-netty#4361".
Exit 0 clean, 1 with findings (or a failed self-test), 2 bad usage.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

RULES = [
    ("ticket number", re.compile(r"\b[Ii]ssues?[ -]#?\d")),
    ("ticket number", re.compile(r"\b(?:[Tt]ickets?|PR|[Pp]ull request)[ -]?#?\d")),
    ("working round", re.compile(r"\b[Rr]ound[ -]?\d")),
    ("branch name", re.compile(r"\b[Bb]ranch(?:es)? [\w./-]*\d|\bi\d+-[a-z]")),
    ("unnamed source report", re.compile(r"\b[Tt]he field report\b")),
    ("lock tool", re.compile(r"\bflock\b|\b[a-z0-9-]+\.lock(?![\w(])|\btools/measure\b")),
    ("machine path", re.compile(
        r"(?<![\w.~$}/-])/(?:home|root|work|srv|mnt|media|Users|scratch|workspace|builds)/[A-Za-z]"
        r"|\b[A-Za-z]:\\+Users\\")),
]

# One planted line per rule (built here so that this file does not match itself), and look-alikes that must pass.
PLANTED = [
    "the gateway of " + "iss" + "ue 8 is the baseline",
    "see " + "tic" + "ket #12",
    "measured in " + "rou" + "nd 3",
    "merged from " + "bra" + "nch i1" + "0-rest",
    "as " + "the fie" + "ld report says",
    "run it under " + "fl" + "ock",
    "raw output in /" + "wo" + "rk/meas/run.log",
]
ALLOWED = [
    "a round trip, three rounds of wrk, round-robin",
    "the native transport regression (spring-cloud-gateway#4209, reactor/reactor-netty#4361)",
    "JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java, a scratch file in /tmp/x, /var/lib, /opt/app, /proc/self/stat",
    "the ip-filter performance report, the gateway-vs-direct JMeter study",
    "lock.lock(); a read lock",
    "git checkout -b my-branch",
]


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    return [f for f in out.decode().split("\0") if f]


def scan(root):
    """[(path, line number, rule, line)] for every tracked text file under root."""
    findings = []
    for rel in tracked_files(root):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # deleted in the work tree, not yet in the index
        with open(path, "rb") as fh:
            data = fh.read()
        if b"\0" in data:
            continue  # binary
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for name, rule in RULES:
                if rule.search(line):
                    findings.append((rel, n, name, line.strip()))
                    break
    return findings


def report(findings):
    for rel, n, name, line in findings:
        print(f"{rel}:{n}: {name}: {line[:200]}")
    if findings:
        print(f"{len(findings)} line(s) refer to what a reader cannot see: say it in the project's own terms "
              "(name a source report by what it is, a command instead of a machine's path; no ticket, round or "
              "branch numbers)")


def self_test(root):
    with tempfile.TemporaryDirectory(prefix="check-references-") as tmp:
        copy = os.path.join(tmp, "repo")
        for rel in tracked_files(root):
            src = os.path.join(root, rel)
            if os.path.isfile(src):
                os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
                shutil.copy2(src, os.path.join(copy, rel))
        os.makedirs(os.path.join(copy, "docs"), exist_ok=True)
        for i, line in enumerate(PLANTED + ALLOWED):
            with open(os.path.join(copy, "docs", f"planted-{i}.md"), "w") as fh:
                fh.write("# planted\n\n" + line + "\n")
        subprocess.run(["git", "init", "-q", copy], check=True)
        subprocess.run(["git", "-C", copy, "add", "-A"], check=True)
        flagged = {f[0] for f in scan(copy)}
    failures = [f"missed: {line!r}" for i, line in enumerate(PLANTED) if f"docs/planted-{i}.md" not in flagged]
    failures += [f"flagged: {line!r}" for i, line in enumerate(ALLOWED, len(PLANTED))
                 if f"docs/planted-{i}.md" in flagged]
    for failure in failures:
        print("self-test: " + failure)
    print(f"self-test: {'FAILED' if failures else 'passed'} ({len(PLANTED)} planted examples, "
          f"{len(ALLOWED)} allowed look-alikes)")
    return not failures


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[1:2] == ["--self-test"]:
        return 0 if self_test(here) else 1
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    findings = scan(argv[1] if len(argv) == 2 else here)
    report(findings)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
