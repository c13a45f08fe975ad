"""A Python service's calls to the standalone server, with Python's standard library only.

Usage: python3 shop_client.py <server-url> <test-id> <scenario>

Runs one step per line read from stdin (so a test can interleave it with other clients,
without sleeping) and prints one JSON line per step: {"step", "status", "body"}.
Steps: switch the scenario, read the user, poll an order three times, charge, read the state.
"""
import json
import sys
import urllib.error
import urllib.request

base, test_id, scenario = sys.argv[1], sys.argv[2], sys.argv[3]


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("x-harness-test-id", test_id)
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


steps = [
    ("switch", "POST", "/__scenario__", {"scenario": scenario}),
    ("me", "GET", "/https/api.shop.example/me", None),
    ("poll", "GET", "/https/api.shop.example/orders/o-1", None),
    ("poll", "GET", "/https/api.shop.example/orders/o-1", None),
    ("poll", "GET", "/https/api.shop.example/orders/o-1", None),
    ("charge", "POST", "/https/api.stripe.com/v1/charges", {"amount": 4200}),
    ("state", "GET", "/__harness__/state", None),
]

for name, method, path, body in steps:
    if sys.stdin.readline() == "":
        break
    status, answer = call(method, path, body)
    print(json.dumps({"step": name, "status": status, "body": answer}), flush=True)
