"""Runs one scenario of the official chart_studio client against the service under test.

tests/clients/python.test.ts spawns `python3 tests/clients/python_client.py <scenario>` with
PYTHONPATH at the vendored client (tests/clients/vendor), HOME in a temporary directory (the
client keeps its config in ~/.plotly) and PF_URL, PF_USERNAME, PF_API_KEY naming the server and
a user of it. The scenario's return value is printed as one `RESULT <json>` line; on an exception
the traceback and the client's last HTTP exchanges go to stderr and the exit code is 1. Every
exchange is also logged to stderr as it happens, so a run killed on a timeout shows where it was.
"""
import json
import os
import sys
import time
import traceback
import warnings

import requests

EXCERPT = 1500
LOG = []


def _excerpt(body, content_type):
    if not body:
        return ""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if content_type and not any(t in content_type for t in ("json", "text", "xml")):
        return "  <{} bytes of {}>".format(len(body), content_type)
    text = body[:EXCERPT].decode("utf-8", "replace")
    return "  " + text + (" ... ({} bytes)".format(len(body)) if len(body) > EXCERPT else "")


def _describe(entry):
    request, answer, seconds = entry
    lines = ["{} {}".format(request.method, request.url)]
    lines.append(_excerpt(request.body, request.headers.get("content-type")))
    if isinstance(answer, Exception):
        lines.append("-> no answer: {!r}".format(answer))
    else:
        content_type = answer.headers.get("content-type", "")
        lines.append("-> {} {} ({:.0f} ms)".format(answer.status_code, content_type, seconds * 1000))
        lines.append(_excerpt(answer.content, content_type))
    return "\n".join(line for line in lines if line)


def _recording(send):
    # Every request of the client goes through requests.Session.send (requests.request makes a
    # Session per call); recording here leaves the client itself untouched.
    def recording_send(self, request, **kwargs):
        started = time.monotonic()
        try:
            answer = send(self, request, **kwargs)
        except Exception as error:
            LOG.append((request, error, time.monotonic() - started))
            print("HTTP {} {} -> {!r}".format(request.method, request.url, error), file=sys.stderr, flush=True)
            raise
        LOG.append((request, answer, time.monotonic() - started))
        print("HTTP {} {} -> {}".format(request.method, request.url, answer.status_code), file=sys.stderr, flush=True)
        return answer

    return recording_send


requests.Session.send = _recording(requests.Session.send)

import chart_studio.tools as tls  # noqa: E402 (after the recorder is in place)

# The client warns once per call that a domain is not https; a local service over http is fine.
warnings.filterwarnings("ignore", message="The plotly_domain and plotly_api_domain")


def configure(username=None, api_key=None):
    """Points the client at the server as a user would: the config and credentials files."""
    url = os.environ["PF_URL"]
    tls.set_config_file(plotly_domain=url, plotly_api_domain=url)
    tls.set_credentials_file(
        username=username or os.environ["PF_USERNAME"],
        api_key=api_key or os.environ["PF_API_KEY"],
    )


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def run():
    name = sys.argv[1]
    try:
        configure()
        result = SCENARIOS[name]()
    except BaseException:
        print("\n--- traceback ---\n" + traceback.format_exc(), file=sys.stderr)
        if LOG:
            print("--- the client's last HTTP exchanges (oldest first) ---", file=sys.stderr)
            print("\n".join(_describe(entry) for entry in LOG[-4:]), file=sys.stderr)
        sys.exit(1)
    print("RESULT " + json.dumps(result, default=list))
