#!/usr/bin/env python3
"""Sends the plans' requests to two gateways and checks that they answer the same.

    python3 ci/same_answers.py http://127.0.0.1:8080 http://127.0.0.1:18090 [--show]

The requests: the study API as the plans send it (GET /api/studies/{id} for ids across the seeded range, a page of
studies, an id that does not exist, a POST that creates a study), and the monolith's pages behind the same routes
(the login page, / for an anonymous client, a stylesheet). Compared: the status, the Content-Type and the body. What
differs per request or per gateway by nature is read out first: the request id a gateway of the lab adds
(X-Request-Id), the login form's CSRF token, the created study's id and time (in its body and its Location), the gateway's own address in a Location.
Exit 0 when every request got the same answer from both, 1 otherwise (each difference printed), 2 on bad usage.
"""
import json
import re
import sys
import urllib.error
import urllib.request

IDS = [1, 2, 42, 777, 5000, 9999, 10000]
CREATE = {"title": "Same answers", "capacity": 12, "description": "sent to both gateways", "category": "backend"}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def send(base, method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    try:
        with OPENER.open(req, timeout=10) as r:
            return r.status, r.headers, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode("utf-8", "replace")


def normalized(base, method, path, status, headers, body):
    content_type = (headers.get("Content-Type") or "").split(";")[0].strip()
    if path == "/api/studies" and method == "POST" and content_type.endswith("json"):
        created = json.loads(body)
        for key in ("id", "createdAt"):
            created.pop(key, None)
        body = json.dumps(created, sort_keys=True)
    body = re.sub(r'name="_csrf" value="[^"]*"', 'name="_csrf" value="TOKEN"', body)
    body = re.sub(r'"(timestamp|requestId|traceId)":"[^"]*",?', "", body)
    location = headers.get("Location")
    if location:
        location = location.replace(base, "")
        if path == "/api/studies" and method == "POST":
            location = re.sub(r"/\d+$", "/ID", location)
    return {"status": status, "content_type": content_type, "location": location, "body": body}


def requests():
    json_accept = {"Accept": "application/json"}
    out = [("GET", "/api/studies/%d" % i, None, json_accept) for i in IDS]
    out.append(("GET", "/api/studies?page=0&size=5", None, json_accept))
    out.append(("GET", "/api/studies/99999999", None, json_accept))
    out.append(("POST", "/api/studies", CREATE, dict(json_accept, **{"Content-Type": "application/json"})))
    out.append(("GET", "/login", None, {"Accept": "text/html"}))
    out.append(("GET", "/", None, {"Accept": "text/html"}))
    out.append(("GET", "/css/lab.css", None, {}))
    return out


def main(argv):
    if len(argv) < 3 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    a, b = argv[1].rstrip("/"), argv[2].rstrip("/")
    differences = 0
    for method, path, body, headers in requests():
        answers = [normalized(base, method, path, *send(base, method, path, body, headers)) for base in (a, b)]
        if answers[0] != answers[1]:
            differences += 1
            print("DIFFERENT %s %s:\n  %s: %s\n  %s: %s" % (method, path, a, answers[0], b, answers[1]))
        elif "--show" in argv:
            print("same %s %s -> %s %s" % (method, path, answers[0]["status"], answers[0]["content_type"]))
    print("%d of %d requests answered the same by %s and %s" % (len(requests()) - differences, len(requests()), a, b))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
