#!/usr/bin/env python3
"""What the compose stack publishes on the host, read from `docker compose config --format json` (every profile).

Usage: compose_publication.py CONFIG.json CONFIG-WITH-DIRECT.json     (called by ci/compose-smoke.sh)

The policy of docs/compose.md ("Published ports"): without docker-compose.direct.yml only the two gateways, nginx, Grafana
and the tools a user opens (Prometheus, Zipkin, Scouter) publish ports; with it study-service and the monolith too,
and they must; every port is bound to 127.0.0.1 (LAB_BIND_ADDRESS unset); the gateway believes X-Forwarded-For from
the compose network's own subnet alone (GATEWAY_TRUSTED_PROXIES = that subnet). Exit 0 when both hold, 1 otherwise.
"""
import json
import sys

TOOLS = {"gateway", "gateway-mvc", "grafana", "nginx", "prometheus", "zipkin", "scouter-server", "scouter-webapp"}
DIRECT = {"study-service", "monolith"}


def check(path, allowed, required=()):
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    services, bad = config["services"], []
    for name, svc in services.items():
        for p in svc.get("ports") or []:
            where = f"{name} {p.get('published')}->{p.get('target')}/{p.get('protocol', 'tcp')}"
            if name not in allowed:
                bad.append(f"{where} is published (allowed: {', '.join(sorted(allowed))})")
            if p.get("host_ip") != "127.0.0.1":
                bad.append(f"{where} is bound to {p.get('host_ip') or 'every interface'}, not 127.0.0.1")
    bad += [f"{name} publishes nothing" for name in sorted(required) if not services[name].get("ports")]
    subnet = config["networks"]["default"]["ipam"]["config"][0]["subnet"]
    trusted = services["gateway"]["environment"].get("GATEWAY_TRUSTED_PROXIES")
    if trusted != subnet:
        bad.append(f"gateway: GATEWAY_TRUSTED_PROXIES={trusted!r}, not the compose network's subnet {subnet}")
    published = sorted(n for n, s in services.items() if s.get("ports"))
    print(f"  {path.rsplit('/', 1)[-1]}: published {', '.join(published)}; X-Forwarded-For believed from {trusted}")
    for b in bad:
        print(f"  FAIL {b}")
    return not bad


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ok = check(argv[1], TOOLS)
    ok = check(argv[2], TOOLS | DIRECT, DIRECT) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
