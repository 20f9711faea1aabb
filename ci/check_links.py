#!/usr/bin/env python3
"""Every relative link in the repository's Markdown leads somewhere: the file exists, and its #anchor is a heading.

    python3 ci/check_links.py [DIR]       check the Markdown files of DIR (default: this repository)
    python3 ci/check_links.py --self-test check a planted set of good and broken links in a temporary repository:
                                          each broken one must be found, no good one flagged

Checked: inline links and images `[text](target)` and reference definitions `[label]: target` in every Markdown
file git tracks or would track (ignored files such as results/ are not part of the repository). A link with a
scheme (https:, mailto:) is not checked. The target must be a file or a folder of the repository; a `#anchor` on a
Markdown target (or on the link's own file) must match one of its headings, slugged as GitHub does (lower case,
punctuation dropped, spaces to hyphens, -1, -2 ... for repeats), or an explicit `<a id="...">` / `<a name="...">`.
Links and headings inside code spans and fenced code blocks do not count.
Exit 0 clean, 1 with findings (or a failed self-test), 2 bad usage.
"""
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
                         r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ANCHOR = re.compile(r"<a\s+[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def repository_files(root):
    """Paths git tracks or would track in root (untracked files count, ignored ones do not)."""
    out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout
    return sorted({f for f in out.decode().split("\0") if f and os.path.isfile(os.path.join(root, f))})


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip(" `~"):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield n, line


def without_code_spans(line):
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def heading_text(raw):
    """The text a heading renders to: code spans keep their content, links their text, markup goes."""
    parts = []
    last = 0
    for m in CODE_SPAN.finditer(raw):
        parts.append(("md", raw[last:m.start()]))
        parts.append(("code", m.group(2).strip() if m.group(2).strip() else m.group(2)))
        last = m.end()
    parts.append(("md", raw[last:]))
    out = []
    for kind, part in parts:
        if kind == "md":
            part = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", part)  # links and images: their text
            part = re.sub(r"<[^>]+>", "", part)  # inline HTML
            part = re.sub(r"\\(.)", r"\1", part)  # escapes
            part = part.replace("*", "")
            part = re.sub(r"(?<![\w])_+|_+(?![\w])", "", part)  # _emphasis_, not snake_case
        out.append(part)
    return "".join(out).strip()


def slug(text):
    """GitHub's anchor for a heading's text."""
    kept = []
    for c in text.lower():
        cat = unicodedata.category(c)
        if c in " -" or cat[0] in "LMN" or cat == "Pc":
            kept.append(c)
    return "".join(kept).replace(" ", "-")


def anchors(text):
    """Every anchor a Markdown file offers: its headings' slugs (repeats numbered) and explicit HTML anchors."""
    found = set()
    seen = {}
    previous, previous_n = None, 0
    for n, line in prose_lines(text):
        if n != previous_n + 1:
            previous = None
        for m in HTML_ANCHOR.finditer(without_code_spans(line) if "`" in line else line):
            found.add(m.group(1))
        title = None
        m = ATX.match(line)
        if m:
            title = m.group(2) or ""
        elif previous is not None and previous.strip() and SETEXT.match(line) and not line.startswith("    ") \
                and not ATX.match(previous) and not previous.lstrip().startswith(("|", "-", "*", ">")):
            title = previous.strip()
        previous, previous_n = line, n
        if title is None:
            continue
        base = slug(heading_text(title))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text):
    """(line number, target) of every link outside code."""
    for n, line in prose_lines(text):
        plain = without_code_spans(line)
        for m in INLINE_LINK.finditer(plain):
            yield n, m.group(2)
        m = REF_DEF.match(plain)
        if m:
            yield n, m.group(1)


def check(root):
    """[(path, line number, target, problem)] for every broken relative link under root."""
    files = repository_files(root)
    present = set(files)
    folders = {os.path.dirname(f) for f in files}
    for f in files:
        parts = f.split("/")
        folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
    cache = {}

    def anchors_of(rel):
        if rel not in cache:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                cache[rel] = anchors(fh.read())
        return cache[rel]

    findings = []
    for rel in files:
        if not rel.lower().endswith(".md"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for n, target in links(text):
            target = target[1:-1] if target.startswith("<") and target.endswith(">") else target
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            path, _, fragment = target.partition("#")
            path = unquote(path)
            if path:
                base = "" if path.startswith("/") else os.path.dirname(rel)
                resolved = os.path.normpath(os.path.join(base, path.lstrip("/"))).replace(os.sep, "/")
                if resolved == "." or resolved.startswith("../"):
                    if resolved != ".":
                        findings.append((rel, n, target, "points outside the repository"))
                        continue
                    resolved = ""
                if resolved not in present and resolved not in folders and resolved != "":
                    findings.append((rel, n, target, "no such file in the repository"))
                    continue
            else:
                resolved = rel
            if fragment and resolved in present and resolved.lower().endswith(".md"):
                if unquote(fragment) not in anchors_of(resolved):
                    findings.append((rel, n, target, f"no heading or <a id> '#{fragment}' in {resolved}"))
    return findings


def report(findings):
    for rel, n, target, problem in findings:
        print(f"{rel}:{n}: ({target}): {problem}")
    if findings:
        print(f"{len(findings)} broken link(s): point each at the file and heading that holds the text now")


# The self-test's repository: every line of docs/links.md that ends in "BAD" must be found, no other line.
PLANTED = {
    "README.md": "# Lab\n\nSee [the docs](docs/links.md#good-heading).\n",
    "docs/target.md": "\n".join([
        "# Target page",
        "## Gateway vs direct: the answer rate — today's (2026-11-27)",
        "## Benchmarks (JMH 1.37, profile `-Pjmh`)",
        "## Repeat",
        "## Repeat",
        "## `GATEWAY_IO_SELECT_COUNT` and snake_case",
        "## A [linked](links.md) *heading*",
        "Setext heading",
        "--------------",
        "```bash",
        "# Not a heading: a shell comment",
        "```",
        '<a id="explicit-anchor"></a>**An explicit anchor**',
        "",
    ]),
    "docs/links.md": "\n".join([
        "# Links",
        "## Good heading",
        "[ok](target.md) [ok](./target.md#target-page) [ok](#good-heading) [ok](#links)",
        "[ok](target.md#gateway-vs-direct-the-answer-rate--todays-2026-11-27)",
        "[ok](target.md#benchmarks-jmh-137-profile--pjmh) [ok](target.md#repeat) [ok](target.md#repeat-1)",
        "[ok](target.md#gateway_io_select_count-and-snake_case) [ok](target.md#a-linked-heading)",
        "[ok](target.md#setext-heading) [ok](target.md#explicit-anchor) [ok](../README.md) [ok](sub/)",
        "[ok](https://example.com/x.md#nope) [ok](mailto:a@b.c) ![ok](sub/pic.png) [ok](<target.md>)",
        "[ok](target.md \"title\") `[code](nowhere.md)` [ok](../README.md#lab)",
        "[ref]: target.md#explicit-anchor",
        "```",
        "[in a fence](nowhere.md)",
        "```",
        "[missing file](nowhere.md) BAD",
        "[missing anchor](target.md#no-such-heading) BAD",
        "[own anchor](#no-such-heading) BAD",
        "[a shell comment is no heading](target.md#not-a-heading-a-shell-comment) BAD",
        "[third repeat](target.md#repeat-2) BAD",
        "![missing image](sub/missing.png) BAD",
        "[outside](../../elsewhere.md) BAD",
        "[ignored file](../results/run.md) BAD",
        "[ref]: target.md#nope BAD",
        "",
    ]),
    "docs/sub/pic.png": "png\n",
    "results/run.md": "# Run\n",
    ".gitignore": "results/\n",
}


def self_test():
    with tempfile.TemporaryDirectory(prefix="check-links-") as tmp:
        for rel, text in PLANTED.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w", encoding="utf-8") as fh:
                fh.write(text)
        subprocess.run(["git", "init", "-q", tmp], check=True)
        found = {(rel, n) for rel, n, _, _ in check(tmp)}
    lines = PLANTED["docs/links.md"].splitlines()
    bad = {("docs/links.md", n) for n, line in enumerate(lines, 1) if line.endswith(" BAD")}
    failures = [f"missed: {lines[n - 1]!r}" for rel, n in sorted(bad - found)]
    failures += [f"flagged: {rel}:{n}" for rel, n in sorted(found - bad)]
    for failure in failures:
        print("self-test: " + failure)
    good = sum(line.count("[ok]") for line in lines) + 1
    print(f"self-test: {'FAILED' if failures else 'passed'} ({len(bad)} broken links planted, {good} good ones)")
    return not failures


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[1:2] == ["--self-test"]:
        return 0 if self_test() else 1
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    findings = check(argv[1] if len(argv) == 2 else here)
    report(findings)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
