#!/usr/bin/env python3
"""Checks Grafana provisioning + dashboards, and that every panel query returns data from a real Prometheus.

Usage: check_dashboards.py [--structure-only] [PROMETHEUS_URL]    (called by ci/check-dashboards.sh)
       check_dashboards.py --self-test      the live check against a stand-in Prometheus on loopback: the
                                            --without-runner fallback leaves out the runner's queries and variables,
                                            and every other empty query still fails

Structure: provisioning YAML (datasource uids, the exemplar link to Zipkin, dashboards path), dashboard JSON (uid, datasource uid, no
__inputs / ${DS_...}, unit + min + legend on every panel, template variables are label_values(...) and every
$variable used is defined), PromQL syntax through promtool when it is installed.
Live: template variables are resolved from that Prometheus (label values seen within --lookback); every target
is run through /api/v1/query with all variables at "All", then once per single value of each variable; an
empty result fails the check. --time last-run evaluates at the runner's last scrape (after a finished bench);
--without-runner leaves out the load runner's client-side metrics (runner_*, job runner) when no runner ran.
Needs PyYAML (pip install pyyaml); otherwise the Python 3 standard library.
"""
import argparse
import contextlib
import glob
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import yaml

PROVIDER_PATH = "/var/lib/grafana/dashboards"
GRAFANA_BUILTIN_DS = "-- Grafana --"          # annotation datasource every dashboard carries
PANEL_KINDS_WITH_UNITS = {"timeseries", "stat", "gauge", "bargauge", "table", "barchart", "heatmap"}
GLOBAL_VARS = {"__rate_interval", "__interval", "__interval_ms", "__range", "__range_s", "__range_ms"}
VAR_REF = re.compile(r"\$\{(\w+)(?::(\w+))?\}|\$(\w+)|\[\[(\w+)(?::(\w+))?\]\]")
# The load runner's client-side metrics (Prometheus job "runner", runner/…/metrics): they exist only while a run is on.
RUNNER_METRIC = re.compile(r"(?<![\w:])runner_[A-Za-z0-9_:]*")
LABEL_VALUES = re.compile(r"^\s*label_values\(\s*(?:(.+?)\s*,\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*$", re.S)


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, message, expr=None):
        self.items.append((where, message, expr))

    def report(self, header):
        print(header, file=sys.stderr)
        for where, message, expr in self.items:
            print(f"  - {where}: {message}", file=sys.stderr)
            if expr:
                print(f"      expr: {expr}", file=sys.stderr)


# ------------------------------------------------------------------ structure

def provisioning_docs(root, paths, problems):
    """Yields (relative path, mapping) for each provisioning file that parses as an apiVersion 1 mapping."""
    for path in paths:
        rel = os.path.relpath(path, root)
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f) or {}
        except yaml.YAMLError as e:
            problems.add(rel, f"YAML: {e}")
            continue
        if not isinstance(doc, dict):
            problems.add(rel, "top level must be a mapping")
            continue
        if doc.get("apiVersion") != 1:
            problems.add(rel, "apiVersion must be 1")
        yield rel, doc


def check_provisioning(root, problems):
    """Returns the provisioned datasource uid (or None)."""
    ds_files = sorted(glob.glob(os.path.join(root, "grafana/provisioning/datasources/*.y*ml")))
    db_files = sorted(glob.glob(os.path.join(root, "grafana/provisioning/dashboards/*.y*ml")))
    uids, tracing = [], []
    if not ds_files:
        problems.add("grafana/provisioning/datasources", "no datasource provisioning file")
    for rel, doc in provisioning_docs(root, ds_files, problems):
        for ds in doc.get("datasources") or []:
            if not isinstance(ds, dict):
                problems.add(rel, "datasources entries must be mappings")
                continue
            if ds.get("type") == "zipkin":
                tracing.append((rel, ds))
                continue
            if ds.get("type") != "prometheus":
                problems.add(rel, f"datasource {ds.get('name')}: type must be prometheus (or zipkin)")
            if not ds.get("uid"):
                problems.add(rel, f"datasource {ds.get('name')}: no fixed uid")
            elif not str(ds.get("url", "")).startswith("http"):
                problems.add(rel, f"datasource {ds.get('name')}: url missing")
            else:
                uids.append(str(ds["uid"]))
    if len(uids) != 1:
        problems.add("grafana/provisioning/datasources", f"expected exactly one Prometheus datasource with a uid, found {uids}")
    check_exemplar_links(ds_files, tracing, problems)
    if not db_files:
        problems.add("grafana/provisioning/dashboards", "no dashboard provider file")
    for rel, doc in provisioning_docs(root, db_files, problems):
        providers = doc.get("providers") or []
        if not providers:
            problems.add(rel, "no providers")
        for p in providers:
            if not isinstance(p, dict) or p.get("type") != "file":
                problems.add(rel, "provider must be a mapping with type: file")
            elif (p.get("options") or {}).get("path") != PROVIDER_PATH:
                problems.add(rel, f"provider {p.get('name')}: options.path must be {PROVIDER_PATH}")
    return uids[0] if len(uids) == 1 else None


def check_exemplar_links(ds_files, tracing, problems):
    """The Zipkin datasource (fixed uid, url) and the Prometheus datasource's exemplar link to it by that uid."""
    zipkin_uids = set()
    for rel, ds in tracing:
        if not ds.get("uid") or not str(ds.get("url", "")).startswith("http"):
            problems.add(rel, f"datasource {ds.get('name')}: a zipkin datasource needs a fixed uid and a url")
        else:
            zipkin_uids.add(str(ds["uid"]))
    if not zipkin_uids:
        problems.add("grafana/provisioning/datasources", "no zipkin datasource (the exemplars' trace store)")
    links = []
    for path in ds_files:
        with open(path, encoding="utf-8") as f:
            for ds in (yaml.safe_load(f) or {}).get("datasources") or []:
                if isinstance(ds, dict) and ds.get("type") == "prometheus":
                    links += ((ds.get("jsonData") or {}).get("exemplarTraceIdDestinations") or [])
    if not any(isinstance(l, dict) and l.get("name") == "trace_id" and l.get("datasourceUid") in zipkin_uids
               for l in links):
        problems.add("grafana/provisioning/datasources",
                     f"the Prometheus datasource has no exemplar link (name trace_id) to a zipkin uid {sorted(zipkin_uids)}")


def walk_panels(panels):
    for p in panels or []:
        yield p
        yield from walk_panels(p.get("panels"))


def walk_datasources(node, path="$"):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "datasource":
                yield path + ".datasource", v
            yield from walk_datasources(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk_datasources(v, f"{path}[{i}]")


def load_dashboards(root, ds_uid, problems):
    dashboards, seen_uids = [], {}
    files = sorted(glob.glob(os.path.join(root, "grafana/dashboards/*.json")))
    if not files:
        problems.add("grafana/dashboards", "no dashboards")
    for path in files:
        rel = os.path.relpath(path, root)
        text = open(path, encoding="utf-8").read()
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            problems.add(rel, f"invalid JSON: {e}")
            continue
        uid = d.get("uid")
        if not uid or not isinstance(uid, str) or len(uid) > 40:
            problems.add(rel, "uid missing (or longer than 40 characters)")
        elif uid in seen_uids:
            problems.add(rel, f"uid {uid} also used by {seen_uids[uid]}")
        else:
            seen_uids[uid] = rel
        if not d.get("title"):
            problems.add(rel, "title missing")
        if "__inputs" in d or "__requires" in d:
            problems.add(rel, "import placeholders (__inputs/__requires) present: use the provisioned datasource uid")
        if "${DS_" in text:
            problems.add(rel, "${DS_...} placeholder present")
        wrong_ds = []
        for where, ds in walk_datasources(d):
            if isinstance(ds, dict) and ds.get("uid") == GRAFANA_BUILTIN_DS and ".annotations." in where:
                continue
            if not isinstance(ds, dict) or ds.get("uid") != ds_uid or ds.get("type", "prometheus") != "prometheus":
                wrong_ds.append(f"{where} = {json.dumps(ds)}")
        if wrong_ds:
            problems.add(rel, f"{len(wrong_ds)} datasource reference(s) are not {{\"type\": \"prometheus\", "
                              f"\"uid\": \"{ds_uid}\"}}, e.g. " + "; ".join(wrong_ds[:3]))
        variables = {}
        for v in (d.get("templating") or {}).get("list") or []:
            name = v.get("name")
            if v.get("type") != "query":
                problems.add(rel, f"variable ${name}: only query variables (label_values) are allowed")
                continue
            query = v.get("query")
            query = query.get("query") if isinstance(query, dict) else query
            m = LABEL_VALUES.match(query or "")
            if not m:
                problems.add(rel, f"variable ${name}: query must be label_values(...), got {query!r}")
                continue
            raw = v.get("query")
            if isinstance(raw, dict) and raw.get("qryType") == 1 and (
                    raw.get("label") != m.group(2) or not raw.get("metric")
                    or not (m.group(1) or "").startswith(raw.get("metric"))):
                # Grafana 10+ rebuilds the query from qryType/metric/label/labelFilters, not from the string
                problems.add(rel, f"variable ${name}: query object (metric/label) does not match {query!r}")
            variables[name] = {"match": m.group(1), "label": m.group(2),
                               "multi": bool(v.get("multi") or v.get("includeAll"))}
        panels, ids = [], set()
        for p in walk_panels(d.get("panels")):
            title = p.get("title") or f"panel {p.get('id')}"
            where = f"{rel} / {title}"
            if p.get("id") in ids:
                problems.add(where, f"duplicate panel id {p.get('id')}")
            ids.add(p.get("id"))
            if p.get("type") == "row":
                continue
            targets = p.get("targets") or []
            if not targets:
                problems.add(where, "panel without queries")
            defaults = (p.get("fieldConfig") or {}).get("defaults") or {}
            if p.get("type") in PANEL_KINDS_WITH_UNITS:
                if not defaults.get("unit"):
                    problems.add(where, "no unit (fieldConfig.defaults.unit)")
                if p.get("type") != "table" and "min" not in defaults:
                    problems.add(where, "no min (fieldConfig.defaults.min)")
            legend = ((p.get("options") or {}).get("legend") or {})
            if p.get("type") == "timeseries" and legend.get("showLegend") is False:
                problems.add(where, "legend hidden")
            for t in targets:
                expr = (t.get("expr") or "").strip()
                if not expr:
                    problems.add(where, f"target {t.get('refId')}: empty expr")
                    continue
                if not t.get("legendFormat"):
                    problems.add(where, f"target {t.get('refId')}: no legendFormat", expr)
                for ref in referenced_vars(expr):
                    if ref not in variables and ref not in GLOBAL_VARS:
                        problems.add(where, f"target {t.get('refId')}: ${ref} is not a template variable", expr)
                panels.append({"where": where, "refId": t.get("refId"), "expr": expr})
        dashboards.append({"file": rel, "variables": variables, "targets": panels})
    return dashboards


def leave_out(dashboards, pattern):
    """Removes the template variables whose label_values(...) selector matches pattern, and the targets whose expression
    matches it or uses a removed variable. Returns (targets removed, variables removed)."""
    queries = variables = 0
    for d in dashboards:
        gone = {name for name, v in d["variables"].items() if pattern.search(v["match"] or "")}
        variables += len(gone)
        d["variables"] = {name: v for name, v in d["variables"].items() if name not in gone}
        kept = [t for t in d["targets"] if not pattern.search(t["expr"]) and not referenced_vars(t["expr"]) & gone]
        queries += len(d["targets"]) - len(kept)
        d["targets"] = kept
    return queries, variables


def referenced_vars(expr):
    return {next(g for g in (m.group(1), m.group(3), m.group(4)) if g) for m in VAR_REF.finditer(expr)}


def regex_escape(value):
    # Grafana escapes multi-value variables for a PromQL regex inside a double-quoted string.
    return re.sub(r"([\\^$*+?.()|{}\[\]])", r"\\\\\1", value)


def substitute(expr, values, builtins):
    """values: name -> list of real values (a list of several = Grafana's "All")."""
    def repl(m):
        name = m.group(1) or m.group(3) or m.group(4)
        if name in builtins:
            return builtins[name]
        if name not in values:
            return m.group(0)        # undefined: reported by the structure check
        vals = values[name]
        if len(vals) == 1:
            return regex_escape(vals[0])
        return "(" + "|".join(regex_escape(v) for v in vals) + ")"
    return VAR_REF.sub(repl, expr)


def promtool_syntax(dashboards, builtins, problems):
    """PromQL syntax of every target, without a Prometheus: wrap them as recording rules for promtool."""
    promtool = shutil.which("promtool")
    if not promtool:
        print("note: promtool not installed; PromQL syntax is checked only by the live run")
        return
    rules, index = [], []
    for d in dashboards:
        dummy = {name: ["x"] for name in d["variables"]}
        for t in d["targets"]:
            rules.append({"record": f"check:r{len(rules)}", "expr": substitute(t["expr"], dummy, builtins)})
            index.append(t)
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        json.dump({"groups": [{"name": "dashboards", "rules": rules}]}, f)   # JSON is valid YAML
    try:
        out = subprocess.run([promtool, "check", "rules", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        text = out.stdout + out.stderr
        bad = {int(n) for n in re.findall(r"check:r(\d+)", text)}
        for n in sorted(bad):
            problems.add(index[n]["where"], f"PromQL syntax ({index[n]['refId']})", index[n]["expr"])
        if not bad:
            problems.add("promtool check rules", text.strip()[-800:])


def promtool_configs(root, problems):
    promtool = shutil.which("promtool")
    if not promtool:
        return
    for path in sorted(glob.glob(os.path.join(root, "prometheus/*.yml"))):
        out = subprocess.run([promtool, "check", "config", "--syntax-only", path], capture_output=True, text=True)
        if out.returncode != 0:
            problems.add(os.path.relpath(path, root), (out.stdout + out.stderr).strip()[-800:])


# ------------------------------------------------------------------ live queries

class Prometheus:
    def __init__(self, url, timeout):
        self.url, self.timeout = url.rstrip("/"), timeout

    def get(self, path, params):
        query = urllib.parse.urlencode(params, doseq=True)
        req = urllib.request.Request(self.url + path + ("?" + query if query else ""))
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                body = json.load(r)
        except urllib.error.HTTPError as e:
            try:
                body = json.load(e)
            except ValueError:
                raise RuntimeError(f"HTTP {e.code}") from None
        except (urllib.error.URLError, OSError) as e:
            raise RuntimeError(f"cannot reach {self.url}: {e}") from None
        if body.get("status") != "success":
            raise RuntimeError(f"{body.get('errorType')}: {body.get('error')}")
        return body["data"]

    def label_values(self, label, match, start, end):
        params = {"start": start, "end": end}
        if match:
            params["match[]"] = match
        return sorted(self.get(f"/api/v1/label/{label}/values", params))

    def query(self, expr, at):
        return self.get("/api/v1/query", {"query": expr, "time": at})


def duration_seconds(text):
    m = re.fullmatch(r"(\d+)(ms|s|m|h)", text)
    if not m:
        raise ValueError(f"not a duration: {text} (use e.g. 30s, 1m, 15m)")
    return int(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def resolve_time(prom, spec):
    if spec is None:
        return time.time()
    if spec != "last-run":
        return float(spec)
    # last timestamp at which the runner's endpoint answered a scrape: its runner_* series are live there
    data = prom.query('max_over_time(timestamp(up{job="runner"} == 1)[1h:5s])', time.time())
    if not data.get("result"):
        raise RuntimeError('the runner (job "runner") was not up within the last hour')
    at = float(data["result"][0]["value"][1])
    print(f"evaluating at the runner's last scrape: {time.strftime('%H:%M:%S', time.gmtime(at))} UTC "
          f"({time.time() - at:.0f} s ago)")
    return at


def check_live(prom, dashboards, builtins, lookback, problems, verbose, now):
    start = now - lookback
    cache, runs = {}, 0                         # expr -> (data, error); a panel repeated elsewhere is still reported
    for d in dashboards:
        values = {}
        for name, v in d["variables"].items():
            match = substitute(v["match"], {n: [".+"] for n in d["variables"]}, builtins) if v["match"] else None
            try:
                vals = prom.label_values(v["label"], match, start, now)
            except RuntimeError as e:
                problems.add(f"{d['file']} / ${name}", f"label_values failed: {e}")
                vals = []
            if not vals:
                problems.add(f"{d['file']} / ${name}",
                             f"no values for label_values({v['match'] or ''}, {v['label']}) in the last {lookback:.0f}s")
            values[name] = vals
        if any(not vals for vals in values.values()):
            continue
        # every variable at "All", then each single value of each variable with the others at "All"
        assignments = [dict(values)]
        for name, vals in values.items():
            if len(vals) > 1:
                for val in vals:
                    assignments.append({**values, name: [val]})
        for t in d["targets"]:
            for assignment in assignments:
                expr = substitute(t["expr"], assignment, builtins)
                if expr not in cache:
                    runs += 1
                    try:
                        cache[expr] = (prom.query(expr, now), None)
                    except RuntimeError as e:
                        cache[expr] = (None, e)
                data, error = cache[expr]
                if error:
                    problems.add(t["where"], f"query {t['refId']} failed: {error}", expr)
                    break                       # the single-value variants would only repeat it
                result = data.get("result")
                empty = not result if data.get("resultType") in ("vector", "matrix") else result is None
                if empty:
                    label = "" if assignment is assignments[0] else " for " + ", ".join(
                        f"${n}={v[0]}" for n, v in assignment.items() if len(v) == 1 and len(values[n]) > 1)
                    problems.add(t["where"], f"query {t['refId']} returned no data{label}", expr)
                    if assignment is assignments[0]:
                        break
                elif verbose:
                    print(f"ok  {t['where']} [{t['refId']}] {len(result)} series: {expr}")
    return runs


# ------------------------------------------------------------------ self-test

SELF_TEST_PRESENT = {"jvm_memory_used_bytes", "up"}   # what the stand-in Prometheus has data for: no runner_* at all


class _StandInPrometheus(http.server.BaseHTTPRequestHandler):
    """Answers the three API calls the live check makes; a query has data when it names a metric of SELF_TEST_PRESENT."""

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        params = urllib.parse.parse_qs(url.query)
        def has_data(text):
            return any(re.search(rf"(?<![\w:]){m}(?![\w:])", text) for m in SELF_TEST_PRESENT)
        if url.path == "/api/v1/status/buildinfo":
            data = {"version": "self-test"}
        elif url.path.startswith("/api/v1/label/"):
            match = params.get("match[]", [""])[0]
            data = ["a", "b"] if not match or has_data(match) else []
        elif url.path == "/api/v1/query":
            expr = params.get("query", [""])[0]
            data = {"resultType": "vector",
                    "result": [{"metric": {}, "value": [time.time(), "1"]}] if has_data(expr) else []}
        else:
            self.send_error(404)
            return
        body = json.dumps({"status": "success", "data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _self_test_dashboard(uid, variables, exprs):
    ds = {"type": "prometheus", "uid": "prometheus"}
    return {"uid": uid, "title": uid, "templating": {"list": [
        {"name": name, "type": "query", "datasource": ds, "query": query} for name, query in variables]},
        "panels": [{"id": i + 1, "type": "timeseries", "title": f"panel {i + 1}", "datasource": ds,
                    "fieldConfig": {"defaults": {"unit": "short", "min": 0}},
                    "targets": [{"refId": "A", "expr": expr, "legendFormat": "x", "datasource": ds}]}
                   for i, expr in enumerate(exprs)]}


def self_test():
    """The no-runner fallback against a stand-in Prometheus that has no runner_* series: it must leave out the
    runner's queries and the template variables on its metrics (the load-generator dashboard's), and nothing else."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runner_only = _self_test_dashboard("self-test-runner", [("target", "label_values(runner_requests_total, target)")],
                                       ['sum by (target) (rate(runner_requests_total{target=~"$target"}[$__rate_interval]))'])
    mixed = ["runner_active_threads", 'sum by (application) (jvm_memory_used_bytes{application=~"$application"})']
    empty_server_query = "sum(rate(http_server_requests_seconds_count[$__rate_interval]))"
    cases = [   # (what, extra dashboard query, options, expected exit, text the report must hold, text it must not)
        ("--without-runner leaves out the runner's queries and variables", None, ["--without-runner"], 0,
         "left out 2 queries and 1 template variables", "FAIL"),
        ("without it the runner's empty queries fail", None, [], 1, "runner_active_threads", None),
        ("--without-runner: any other empty query still fails", empty_server_query, ["--without-runner"], 1,
         "http_server_requests_seconds_count", "runner_active_threads"),
    ]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _StandInPrometheus)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    failures = []
    try:
        for what, extra, options, want_rc, want_text, unwanted in cases:
            with tempfile.TemporaryDirectory(prefix="check-dashboards-") as root:
                shutil.copytree(os.path.join(repo, "grafana/provisioning"), os.path.join(root, "grafana/provisioning"))
                os.makedirs(os.path.join(root, "grafana/dashboards"))
                boards = {"runner": runner_only, "mixed": _self_test_dashboard(
                    "self-test-mixed", [("application", "label_values(jvm_memory_used_bytes, application)")],
                    mixed + ([extra] if extra else []))}
                for name, board in boards.items():
                    with open(os.path.join(root, f"grafana/dashboards/{name}.json"), "w", encoding="utf-8") as f:
                        json.dump(board, f)
                out = io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                    rc = main(["--root", root, "--lookback", "1m", *options, url])
            text = out.getvalue()
            ok = rc == want_rc and want_text in text and not (unwanted and unwanted in text)
            print(f"self-test: {'ok    ' if ok else 'FAILED'} {what} (exit {rc}, expected {want_rc})")
            if not ok:
                failures.append(what)
                print("    " + text.strip().replace("\n", "\n    "))
    finally:
        server.shutdown()
    print(f"self-test: {'FAILED' if failures else 'passed'} ({len(cases)} cases)")
    return 1 if failures else 0


def main(argv=None):
    root_default = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("prometheus_url", nargs="?", help="e.g. http://127.0.0.1:9090")
    ap.add_argument("--structure-only", action="store_true", help="skip the queries against Prometheus")
    ap.add_argument("--root", default=root_default, help="repository root (default: %(default)s)")
    ap.add_argument("--rate-interval", default="1m", type=str,
                    help="value for $__rate_interval / $__interval (default %(default)s)")
    ap.add_argument("--lookback", default="2m",
                    help="template variable values must have been seen within this window (default %(default)s)")
    ap.add_argument("--time", default=None,
                    help="evaluate at this unix time instead of now, or 'last-run': the last scrape at which the "
                         "runner (job runner) was up within the last hour, for checks after a bench has finished")
    ap.add_argument("--skip", default=None, metavar="REGEX",
                    help="leave out queries whose expression matches REGEX, the template variables whose "
                         "label_values(...) selector matches it and the queries that use such a variable; "
                         "they are counted, not checked")
    ap.add_argument("--without-runner", action="store_true",
                    help="no load runner was scraped: leave out the runner's client-side metrics (runner_*) — "
                         "the queries and template variables on them — and check every other query")
    ap.add_argument("--self-test", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=float, default=10, help="seconds per HTTP call (default %(default)s)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every query that returned data")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.skip and args.without_runner:
        ap.error("--skip and --without-runner exclude each other")
    if not args.structure_only and not args.prometheus_url:
        ap.error("PROMETHEUS_URL is required unless --structure-only")
    try:
        rate_s = duration_seconds(args.rate_interval)
        lookback = duration_seconds(args.lookback)
    except ValueError as e:
        ap.error(str(e))
    builtins = {"__rate_interval": args.rate_interval, "__interval": args.rate_interval,
                "__interval_ms": str(int(rate_s * 1000)), "__range": args.lookback,
                "__range_s": str(int(lookback)), "__range_ms": str(int(lookback * 1000))}

    problems = Problems()
    ds_uid = check_provisioning(args.root, problems)
    dashboards = load_dashboards(args.root, ds_uid, problems)
    promtool_syntax(dashboards, builtins, problems)
    promtool_configs(args.root, problems)
    n_targets = sum(len(d["targets"]) for d in dashboards)
    if problems.items:
        problems.report(f"FAIL: structure ({len(dashboards)} dashboards, {n_targets} queries)")
        return 1
    print(f"structure ok: {len(dashboards)} dashboards, {n_targets} queries, datasource uid '{ds_uid}'")
    if args.structure_only:
        return 0

    prom = Prometheus(args.prometheus_url, args.timeout)
    try:
        prom.get("/api/v1/status/buildinfo", {})
    except RuntimeError as e:
        print(f"FAIL: Prometheus at {args.prometheus_url}: {e}", file=sys.stderr)
        return 1
    try:
        at = resolve_time(prom, args.time)
    except (RuntimeError, ValueError) as e:
        print(f"FAIL: --time {args.time}: {e}", file=sys.stderr)
        return 1
    if args.skip or args.without_runner:
        pattern = RUNNER_METRIC if args.without_runner else re.compile(args.skip)
        queries, variables = leave_out(dashboards, pattern)
        what = "the runner's metrics (runner_*)" if args.without_runner else repr(args.skip)
        print(f"left out {queries} queries and {variables} template variables on {what}")
    runs = check_live(prom, dashboards, builtins, lookback, problems, args.verbose, at)
    if problems.items:
        problems.report(f"FAIL: {len(problems.items)} problem(s) in {runs} queries against {args.prometheus_url}")
        if args.time is None and not args.without_runner and any(
                RUNNER_METRIC.search(e or where) for where, _, e in problems.items):
            print("hint: runner_* series exist only while the runner serves :9270 — run this during a bench, or "
                  "after one with --time last-run (or --without-runner when no runner ran)", file=sys.stderr)
        return 1
    print(f"queries ok: {runs} queries against {args.prometheus_url}, all returned data")
    return 0


if __name__ == "__main__":
    sys.exit(main())
