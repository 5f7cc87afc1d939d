"""chart_studio's Stream (the official client, unchanged) writing to the service's streaming host.

Run by tests/clients/streams.test.ts (see harness.py) with PF_STREAM_TOKEN (a stream token of the
user), PF_STREAM_HOST (the streaming host's name) and http_proxy naming the test's front, which
routes that host to the app (the client speaks to port 80 of the host, through a proxy if told).
"""
import os
import time

from harness import configure, run, scenario

import chart_studio.plotly as py
import chart_studio.tools as tls


def streaming():
    configure()
    tls.set_credentials_file(stream_ids=[os.environ["PF_STREAM_TOKEN"]])
    tls.set_config_file(plotly_streaming_domain=os.environ["PF_STREAM_HOST"])
    return tls.get_credentials_file()["stream_ids"][0]


@scenario
def thousand_points():
    stream = py.Stream(streaming())
    stream.open()
    # y is when the point was written (ms of the clock the test's page reads): its latency there.
    # After the first point, a second for the stream to be taken on; then about 400 points a second.
    for i in range(1000):
        stream.write({"x": i, "y": time.time() * 1000})
        if i % 250 == 0:
            stream.heartbeat()
        time.sleep(1 if i == 0 else 0.002)
    stream.write({"x": [1, 2, 3], "y": [3, 1, 2]}, layout={"title": {"text": "Streamed"}})
    stream.close()
    return {"written": 1000}


if __name__ == "__main__":
    run()
