#!/usr/bin/env python3
"""Asserts through the Scouter webapp's REST API (/scouter/v1) that objects are alive and recorded transactions.

One check for both routes of the lab's APM: ci/apm-e2e.sh (./lab up --apm, collector on the host) and
ci/compose-smoke.sh (compose profile apm, collector in a container). Polls until every expectation holds or the
deadline passes (the webapp's object list lags the collector's by a few seconds), then prints what it saw.

  ci/scouter_check.py --api http://127.0.0.1:6188/scouter/v1 --since <epoch ms> \\
      --alive gateway,study-service,monolith \\
      --xlogs gateway:/api/studies/:20 --xlogs study-service:/api/studies/:20 --xlogs monolith:/login:10 \\
      [--tps gateway:java --tps study-service:tomcat] [--timeout 60] [--out DIR]

  --alive   object names (the part after the last '/', i.e. the service name) that must be alive
  --xlogs   OBJECT:PREFIX:N — at least N transactions of OBJECT whose service name starts with PREFIX, ended at or
            after --since (xlog-data of the collector's day: the local and the UTC day are both asked, so a
            collector on the host and one in a UTC container are both covered)
  --tps     OBJECT:TYPE — the realtime TPS counter of OBJECT (object type TYPE: tomcat, java) was above 0 at one of
            the polls (it is a rate over the agent's recent window, so it falls back to 0 a while after the requests)
  --out     writes objects.json, xlogs.json, tps.json and verdict.txt there (the last answers seen)
Exit 0: all hold; 1: not by the deadline (the verdict names what is missing); 2: bad arguments.
"""
import argparse
import datetime
import json
import os
import sys
import time
import urllib.error
import urllib.request


def xlog_expectation(text):
    obj, _, rest = text.partition(":")
    prefix, _, n = rest.rpartition(":")
    if not (obj and prefix and n.isdigit()):
        raise argparse.ArgumentTypeError("'%s' must look like OBJECT:PREFIX:N, e.g. study-service:/api/studies/:20" % text)
    return obj, prefix, int(n)


def tps_expectation(text):
    obj, _, obj_type = text.partition(":")
    if not (obj and obj_type):
        raise argparse.ArgumentTypeError("'%s' must look like OBJECT:TYPE, e.g. study-service:tomcat" % text)
    return obj, obj_type


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.load(r)


def short(name):
    return name.rsplit("/", 1)[-1]


def days(since_ms, until_ms):
    out = []
    for ms in (since_ms, until_ms):
        t = ms / 1000
        for d in (datetime.datetime.fromtimestamp(t), datetime.datetime.fromtimestamp(t, datetime.timezone.utc)):
            if d.strftime("%Y%m%d") not in out:
                out.append(d.strftime("%Y%m%d"))
    return out


def observe(args):
    """One look at the API: (seen dict, raw answers). Raises on HTTP/connection errors."""
    objects = get(args.api + "/object")["result"]
    name = {o["objHash"]: short(o["objName"]) for o in objects}
    alive = sorted({name[o["objHash"]] for o in objects if o.get("alive")})
    raw = {"objects": objects, "xlogs": [], "tps": {}}
    seen = {"alive": alive, "xlogs": {}, "tps": {}}
    if args.xlogs:
        until = int(time.time() * 1000) + 5000
        hashes = ",".join(str(o["objHash"]) for o in objects)
        by_txid = {}
        for day in days(args.since, until):
            url = "%s/xlog-data/%s?startTimeMillis=%d&endTimeMillis=%d&objHashes=%s" % (
                args.api, day, args.since, until, hashes)
            for x in get(url)["result"]["xlogs"]:
                by_txid[x.get("txid") or id(x)] = x
        raw["xlogs"] = list(by_txid.values())
        for obj, prefix, _ in args.xlogs:
            seen["xlogs"]["%s %s" % (obj, prefix)] = sum(
                1 for x in raw["xlogs"] if name.get(x["objHash"]) == obj and x.get("service", "").startswith(prefix))
    for obj_type in sorted({t for _, t in args.tps}):
        for c in get("%s/counter/realTime/TPS/ofType/%s" % (args.api, obj_type))["result"]:
            if c.get("name") == "TPS":
                raw["tps"][short(c["objName"])] = seen["tps"][short(c["objName"])] = float(c.get("value") or 0)
    return seen, raw


def missing(args, seen):
    out = ["%s not alive" % o for o in args.alive if o not in seen["alive"]]
    for obj, prefix, n in args.xlogs:
        got = seen["xlogs"]["%s %s" % (obj, prefix)]
        if got < n:
            out.append("%s: %d transaction(s) %s*, want >= %d" % (obj, got, prefix, n))
    out += ["%s: TPS %s, want > 0" % (obj, seen["tps"].get(obj, "absent")) for obj, _ in args.tps
            if seen["tps"].get(obj, 0) <= 0]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--api", required=True, help="e.g. http://127.0.0.1:6188/scouter/v1")
    p.add_argument("--since", type=int, default=0, help="epoch milliseconds; transactions before it are not counted")
    p.add_argument("--alive", type=lambda s: [x for x in s.split(",") if x], default=[])
    p.add_argument("--xlogs", type=xlog_expectation, action="append", default=[])
    p.add_argument("--tps", type=tps_expectation, action="append", default=[])
    p.add_argument("--timeout", type=float, default=60, help="seconds to keep polling (default 60)")
    p.add_argument("--out", help="directory for the last answers and the verdict")
    args = p.parse_args()
    args.api = args.api.rstrip("/")
    if not (args.alive or args.xlogs or args.tps):
        p.error("nothing to check: give --alive, --xlogs or --tps")
    if args.xlogs and args.since <= 0:
        p.error("--xlogs needs --since <epoch ms> (the time just before the requests were sent)")

    deadline = time.monotonic() + args.timeout
    seen, raw, problems = None, None, ["no answer from %s" % args.api]
    while True:
        try:
            now_seen, raw = observe(args)
            for obj, tps in (seen or {}).get("tps", {}).items():   # TPS is a rate over the agent's recent window:
                now_seen["tps"][obj] = max(tps, now_seen["tps"].get(obj, 0))   # once above 0 counts
            seen = now_seen
            problems = missing(args, seen)
        except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError) as e:
            # the webapp answers 500 for a few seconds after start-up, and as long as no agent has reported
            hint = " (no agent reporting to the collector?)" if getattr(e, "code", None) == 500 else ""
            problems = ["%s: %s%s" % (args.api, e, hint)]
        if not problems or time.monotonic() >= deadline:
            break
        time.sleep(2)

    lines = []
    if seen:
        lines.append("alive: %s" % ", ".join(seen["alive"]))
        if args.xlogs:
            lines.append("transactions since %d: %s" % (args.since, ", ".join(
                "%s=%d" % kv for kv in seen["xlogs"].items())))
        if args.tps:
            lines.append("TPS: %s" % ", ".join("%s=%.1f" % kv for kv in sorted(seen["tps"].items())))
    lines.append("verdict: " + ("PASS" if not problems else "FAIL — " + "; ".join(problems)))
    print("\n".join("  scouter: " + l for l in lines))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        if raw:
            for key in ("objects", "xlogs", "tps"):
                with open(os.path.join(args.out, key + ".json"), "w") as f:
                    json.dump(raw[key], f, indent=1)
        with open(os.path.join(args.out, "verdict.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
