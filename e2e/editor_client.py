"""The Python client's side of e2e/chart-editor.spec.ts: `make <filename>` plots a figure with
nested data the way users do (raw arrays, uploaded into a grid by the client), `read <url>` reads a
plot back with get_figure. Run with PYTHONPATH at tests/clients/vendor and tests/clients (harness.py)."""
import sys

from harness import run, scenario

import chart_studio.plotly as py


@scenario
def make():
    figure = {
        "data": [
            {"type": "scatter", "x": [1, 2, 3], "y": [3, 1, 2], "marker": {"color": [1, 2, 3]}, "name": "first"},
            {"type": "scatter", "mode": "lines", "x": [1, 2, 3], "y": [2, 2, 1], "name": "second"},
        ],
        "layout": {"title": {"text": "From Python"}},
    }
    return {"url": py.plot(figure, filename=sys.argv[2], auto_open=False, sharing="private")}


@scenario
def read():
    return py.get_figure(sys.argv[2], raw=True)


run()
