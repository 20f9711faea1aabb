#!/usr/bin/env python3
"""Checks one `./lab bench --experiment` run directory (run.json + lab-script.log) and prints what it saw.

One checker for every experiment CI runs (ci/e2e.sh: logging, tuning, virtual-threads; ci/deny-list.sh: deny-list):

  ci/check_experiment.py RUN_DIR --targets off,log4j2-async [--service gateway] [--variants a,b] [--ratio-of log4j2-async]
      [--plan slow-upstream] [--model 'open at 40'] [--all-succeed] [--property traffic=allowed]
      [--property-suffix clients=/3m/client-ips.csv] [--answer REGEX] [--apps-jdk]

Always: the targets are exactly --targets, in that order, each with samples; --service was started at least once per
variant per repetition (lab-script.log), i.e. every measurement ran on a freshly restarted JVM; the answer names
the experiment.
  --variants A,B     the variants, when several targets share one (virtual-threads: platform,virtual); default: the targets
  --ratio-of V       ratios[0] is V's ratio to the baseline with one value per repetition
  --plan P           every target ran plan P
  --model M          settings.model starts with M
  --all-succeed      every target's success rate is 100 %
  --property K=V     settings.jmeter_properties[K] == V (repeatable)
  --property-suffix K=S  settings.jmeter_properties[K] ends with S (repeatable)
  --answer REGEX     the answer matches REGEX
  --apps-jdk         environment.apps_jdk is recorded
Exit 0: all hold; 1: one does not (each failed expectation is printed); 2: bad arguments or no run.json.
"""
import argparse
import json
import os
import re
import sys


def pair(text):
    key, sep, value = text.partition("=")
    if not (key and sep):
        raise argparse.ArgumentTypeError("'%s' must look like KEY=VALUE" % text)
    return key, value


def main():
    p = argparse.ArgumentParser(description="Checks a ./lab bench --experiment run directory.")
    p.add_argument("run_dir")
    p.add_argument("--targets", required=True, help="the expected target names, comma-separated, in order")
    p.add_argument("--service", default="gateway", help="the service the experiment restarts (default gateway)")
    p.add_argument("--variants", help="the variants, when several targets share one (default: the targets)")
    p.add_argument("--ratio-of")
    p.add_argument("--plan")
    p.add_argument("--model")
    p.add_argument("--all-succeed", action="store_true")
    p.add_argument("--property", type=pair, action="append", default=[])
    p.add_argument("--property-suffix", type=pair, action="append", default=[])
    p.add_argument("--answer")
    p.add_argument("--apps-jdk", action="store_true")
    a = p.parse_args()

    run_json = os.path.join(a.run_dir, "run.json")
    if not os.path.isfile(run_json):
        print("check_experiment.py: no run.json in %s — did the run fail? (see its log)" % a.run_dir, file=sys.stderr)
        return 2
    d = json.load(open(run_json))
    script_log = os.path.join(a.run_dir, "lab-script.log")
    starts = len(re.findall(r"starting %s\b" % re.escape(a.service), open(script_log).read())) \
        if os.path.isfile(script_log) else 0
    names = [t["name"] for t in d["targets"]]
    reps = d["settings"]["repetitions"]
    expected = a.targets.split(",")
    variants = a.variants.split(",") if a.variants else expected

    for t in d["targets"]:
        print("       %s: %d samples, %.0f TPS, success %.2f %%" % (t["name"], t["samples"], t["tps"], t["success_rate"]))
    print("       %d %s starts for %d variant(s) × %d repetition(s)" % (starts, a.service, len(variants), reps))
    print("       " + d["answer"])

    problems = []
    if names != expected:
        problems.append("targets %s, expected %s" % (names, expected))
    if not all(t["samples"] > 0 for t in d["targets"]):
        problems.append("a target has no samples")
    if starts < len(variants) * reps:
        problems.append("%d starts of %s, expected at least %d (one per variant per repetition)"
                        % (starts, a.service, len(variants) * reps))
    experiment = d["settings"]["experiment"]
    answer = d["answer"]
    smoke = "Smoke run, not for quoting (--quick): "  # the runner's prefix for a --quick run (Answer.SMOKE)
    if answer.startswith(smoke):
        answer = answer[len(smoke):]
    if not answer.lower().startswith(experiment):
        problems.append("the answer does not lead with the experiment's name %r" % experiment)
    if a.ratio_of is not None:
        ratio = d["ratios"][0] if d.get("ratios") else {}
        print("       %s / %s = %.3f over %d repetitions" % (ratio.get("of"), ratio.get("to"), ratio.get("mean", 0),
                                                            len(ratio.get("reps", []))))
        if ratio.get("of") != a.ratio_of or len(ratio.get("reps", [])) != reps:
            problems.append("ratios[0] is not %s's with %d repetitions: %s" % (a.ratio_of, reps, ratio))
    if a.plan and not all(t["plan"] == a.plan for t in d["targets"]):
        problems.append("not every target ran plan %s: %s" % (a.plan, [t["plan"] for t in d["targets"]]))
    if a.model and not d["settings"]["model"].startswith(a.model):
        problems.append("model %r does not start with %r" % (d["settings"]["model"], a.model))
    if a.all_succeed and not all(t["success_rate"] == 100.0 for t in d["targets"]):
        problems.append("not every request succeeded")
    props = d["settings"].get("jmeter_properties", {})
    for key, value in a.property:
        if props.get(key) != value:
            problems.append("property %s=%r, expected %r" % (key, props.get(key), value))
    for key, suffix in a.property_suffix:
        if not props.get(key, "").endswith(suffix):
            problems.append("property %s=%r does not end with %r" % (key, props.get(key), suffix))
    if a.answer and not re.search(a.answer, d["answer"]):
        problems.append("the answer does not match %r" % a.answer)
    if a.apps_jdk:
        print("       apps' JDK: %s" % d["environment"].get("apps_jdk"))
        if not d["environment"].get("apps_jdk"):
            problems.append("environment.apps_jdk not recorded")
    for problem in problems:
        print("       not as expected: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
