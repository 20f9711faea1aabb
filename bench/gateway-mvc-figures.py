#!/usr/bin/env python3
"""The figures of docs/gateway-mvc.md ("Figures") from one bench/gateway-mvc.sh results folder, as Markdown.

    python3 bench/gateway-mvc-figures.py DIR     DIR: a bench/gateway-mvc.sh --out folder (bench/, sweep/, slow/,
                                                 memory.md, startup/startup.md, levers/); a missing step is said so

Prints, per step, the command it ran, its date and its run folder, then the figures the page quotes: CPU µs per request
of each gateway, the floor and direct; the TPS ratios; what each gateway adds over direct across the load range; the
sweep; the slow upstream's p50/p99 and errors per path; memory; start-up; each lever against the MVC gateway's
defaults. Only reads; exit 0, or 2 when DIR is not a folder.
"""
import glob
import json
import math
import os
import sys


def load(pattern):
    files = sorted(glob.glob(pattern))
    if not files:
        return None, None
    with open(files[-1]) as f:
        return json.load(f), os.path.dirname(files[-1])


def num(v):
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def pm(mean, ci, fmt="{:,.1f}"):
    mean, ci = num(mean), num(ci)
    if mean is None:
        return "–"
    return fmt.format(mean) + ("" if ci is None else " ± " + fmt.format(ci))


def est(e, scale=1.0, fmt="{:,.2f}"):
    """A runner estimate ({mean, ci95, values}) in µs, shown divided by scale."""
    if not e:
        return "–"
    mean, ci = num(e.get("mean")), num(e.get("ci95"))
    if mean is None:
        return "–"
    return pm(mean / scale, None if ci is None else ci / scale, fmt)


def header(title, command, run, folder):
    print()
    print("### " + title)
    print()
    if run is None:
        print("Not run (no results in this folder): `" + command + "`.")
        return False
    env = run.get("environment", {})
    quick = run.get("settings", {}).get("quick")
    jdks = sorted(set(env.get("apps_jdk", {}).values()))
    print("`{}` — {}, {} cores, apps on {}; {}{}".format(command, env.get("started", "?")[:16].replace("T", " ") + " UTC",
                                                     env.get("cores", "?"), ", ".join(jdks) or "?",
                                                     os.path.relpath(folder), " — **--quick: a smoke run, not for "
                                                     "quoting**" if quick else ""))
    if run.get("status") != "valid":
        print()
        print("**INVALID run**: " + "; ".join(run.get("invalid_because") or []))
    print()
    return True


def own_cpu(t):
    """The CPU per request of the process a target is about: the gateway of its name, else the upstream."""
    cpu = t.get("cpu_us_per_request") or {}
    name = t["name"]
    own = name if name in cpu else ("study-service" if name == "direct" else None)
    return (own, cpu.get(own)) if own else (None, None)


def bench(out):
    run, folder = load(os.path.join(out, "bench", "*", "run.json"))
    if not header("CPU per request, TPS, added latency", "./lab bench --targets gateway,gateway-mvc,floor,direct",
                  run, folder):
        return
    print("| target | TPS (mean ± 95 % CI) | p50 ms | p99 ms | CPU µs per request of | study-service µs per request "
          "| RSS MiB of it | success |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for t in run["targets"]:
        who, cpu = own_cpu(t)
        up = (t.get("cpu_us_per_request") or {}).get("study-service") or {}
        rss = ((t.get("resources") or {}).get(who) or {}).get("rss_mib") if who else None
        print("| {} | {} | {} | {} | {}: {} | {} | {} | {:.2f} % |".format(
            t["name"], pm(t.get("tps"), t.get("tps_ci95")), t.get("p50_ms", "–"), t.get("p99_ms", "–"), who or "–",
            pm((cpu or {}).get("mean"), (cpu or {}).get("ci95")), pm(up.get("mean"), up.get("ci95")),
            "–" if rss is None else "{:.0f}".format(rss), t.get("success_rate", 0)))
    print()
    print("TPS ratios (mean ± 95 % CI): " + "; ".join("{} ÷ {} {}".format(r["of"], r["to"],
                                                                          pm(r["mean"], r["ci95"], "{:.3f}"))
                                                    for r in run.get("ratios", [])) + ".")
    split = run.get("cpu_split")
    if split:
        print()
        print("The gateway over the floor (CPU µs per request): floor {}, on top {}, gateway ÷ floor {}.".format(
            est(split.get("floor_us_per_request"), 1, "{:,.1f}"), est(split.get("on_top_us_per_request"), 1, "{:,.1f}"),
            est(split.get("gateway_over_floor"), 1, "{:.2f}")))
    lat = run.get("latency")
    if lat:
        print()
        print("What each gateway adds over direct (open model, ms; mean ± 95 % CI over repetitions where there are "
              "several):")
        print()
        print("| req/s | gateway adds p50 | gateway adds p99 | gateway-mvc adds p50 | gateway-mvc adds p99 |")
        print("|---:|---:|---:|---:|---:|")
        for level in lat.get("levels", []):
            g = level.get("added") or {}
            m = (level.get("added_by") or {}).get("gateway-mvc") or {}
            print("| {:,.0f} | {} | {} | {} | {} |".format(level["rate"], est(g.get("p50"), 1000),
                                                           est(g.get("p99"), 1000), est(m.get("p50"), 1000),
                                                           est(m.get("p99"), 1000)))
        g = lat.get("added_at_answer_rate") or {}
        m = (lat.get("added_at_answer_rate_by") or {}).get("gateway-mvc") or {}
        print()
        print("At the answer's rate ({:,.0f} req/s), ms added over direct: gateway {} at p50, {} at p99; gateway-mvc "
              "{} at p50, {} at p99.".format(num(lat.get("answer_rate")) or 0, est(g.get("p50"), 1000),
                                             est(g.get("p99"), 1000), est(m.get("p50"), 1000), est(m.get("p99"), 1000)))
    print()
    print("The runner's answer: " + (run.get("answer") or "none"))


def sweep(out):
    data, folder = load(os.path.join(out, "sweep", "*", "sweep.json"))
    print()
    print("### Sweep")
    print()
    if data is None:
        print("Not run (no results in this folder): `./lab sweep --targets gateway,gateway-mvc,direct "
              "--levels 100,500,1000`.")
        return
    levels = data.get("settings", {}).get("levels", [])
    print("`./lab sweep --targets gateway,gateway-mvc,direct --levels {}` — {} s per level; {}".format(
        ",".join(str(v) for v in levels), data.get("settings", {}).get("duration_s", "?"), os.path.relpath(folder)))
    print()
    print("| target | users | TPS | p50 ms | p99 ms | p99.9 ms | success |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for p in data.get("points", []):
        ms = [("–" if num(p.get(k)) is None else "{:,.1f}".format(p[k] / 1000)) for k in ("p50_us", "p99_us", "p999_us")]
        print("| {} | {} | {:,.0f} | {} | {} | {} | {:.2f} % |".format(p["target"], p["threads"], p["tps"], *ms,
                                                                      p["success_rate"]))
    print()
    for w in data.get("warnings", []):
        print("- ⚠ " + w)


def slow(out):
    run, folder = load(os.path.join(out, "slow", "*", "run.json"))
    if not header("Slow upstream (200–800 ms), open model",
                  "./lab bench --experiment virtual-threads --targets direct,gateway,gateway-mvc", run, folder):
        return
    print("| path (study-service threads – through) | p50 ms | p99 ms | success | errors |")
    print("|---|---:|---:|---:|---|")
    for t in run["targets"]:
        errors = ", ".join("{} × {}".format(n, k) for k, n in (t.get("errors") or {}).items()) or "none"
        print("| {} | {} | {} | {:.2f} % | {} |".format(t["name"], t.get("p50_ms", "–"), t.get("p99_ms", "–"),
                                                        t.get("success_rate", 0), errors))
    print()
    print("The runner's answer: " + (run.get("answer") or "none"))


def text(out, path, title, command):
    print()
    print("### " + title)
    print()
    f = os.path.join(out, path)
    if not os.path.exists(f):
        print("Not run (no results in this folder): `" + command + "`.")
        return
    print("`{}` — {}".format(command, os.path.relpath(f)))
    print()
    with open(f) as fh:
        print(fh.read().rstrip())


def levers(out):
    run, folder = load(os.path.join(out, "levers", "*", "run.json"))
    if not header("Levers of the MVC gateway",
                  "./lab bench --experiment tuning-mvc --repetitions 3 --latency-repetitions 0", run, folder):
        return
    print("| variant | TPS (mean ± 95 % CI) | p99 ms | gateway-mvc CPU µs per request | success |")
    print("|---|---:|---:|---:|---:|")
    for t in run["targets"]:
        cpu = (t.get("cpu_us_per_request") or {}).get("gateway-mvc") or {}
        print("| {} | {} | {} | {} | {:.2f} % |".format(t["name"], pm(t.get("tps"), t.get("tps_ci95")),
                                                        t.get("p99_ms", "–"), pm(cpu.get("mean"), cpu.get("ci95")),
                                                        t.get("success_rate", 0)))
    print()
    for c in run.get("comparisons", []):
        print("- " + c)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    out = argv[1]
    if not os.path.isdir(out):
        print("gateway-mvc-figures: no folder " + out, file=sys.stderr)
        return 2
    print("## Figures of {} (bench/gateway-mvc.sh)".format(os.path.relpath(out)))
    commit = os.path.join(out, "commit.txt")
    if os.path.exists(commit):
        with open(commit) as f:
            print()
            print("Lab commit: " + f.read().strip() + ".")
    bench(out)
    sweep(out)
    slow(out)
    text(out, "memory.md", "Memory after the same load",
         "./lab bench --no-start --targets gateway,gateway-mvc, then RSS and jcmd GC.run")
    text(out, os.path.join("startup", "startup.md"), "Start-up", "bench/startup.sh --services gateway,gateway-mvc")
    levers(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
