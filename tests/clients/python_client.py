"""Everyday calls of the official Python client (chart_studio), one scenario per test.

Run by tests/clients/python.test.ts (see harness.py); each scenario returns what the test checks.
By hand, against a running service:

    PYTHONPATH=tests/clients/vendor PF_URL=http://localhost:3000 PF_USERNAME=alice PF_API_KEY=... \
        /usr/bin/python3 tests/clients/python_client.py plot_overwrite
"""
import json
import os
import tempfile
import urllib.parse

from harness import configure, run, scenario

import chart_studio.plotly as py
import chart_studio.tools as tls
from chart_studio.api import v2
from chart_studio.exceptions import PlotlyRequestError
from chart_studio.dashboard_objs import dashboard_objs as dashboard
from chart_studio.grid_objs import Column, Grid
from chart_studio.presentation_objs import Presentation
import plotly.tools
from plotly.graph_objs import Scatter


def figure(y, title):
    return {"data": [{"type": "scatter", "x": [1, 2, 3], "y": y, "name": title}], "layout": {"title": {"text": title}}}


def fetched(url):
    """The figure behind a plot URL, as get_figure gives it (plotly.graph_objs, so validated)."""
    fig = py.get_figure(url)
    return {"data": [trace.to_plotly_json() for trace in fig.data], "title": fig.layout.title.text}


@scenario
def plot_overwrite():
    first = py.plot(figure([2, 1, 2], "First"), filename="overwrite me", auto_open=False)
    second = py.plot(figure([3, 1, 3], "Second"), filename="overwrite me", auto_open=False)
    return {"first": first, "second": second, "figure": fetched(second)}


@scenario
def plot_private():
    url = py.plot(figure([5, 6, 7], "Private"), filename="private plot", sharing="private", auto_open=False)
    return {"url": url, "figure": fetched(url)}


@scenario
def plot_secret():
    url = py.plot(figure([7, 8, 9], "Secret"), filename="secret plot", sharing="secret", auto_open=False)
    return {"url": url, "embed": tls.get_embed(url)}


@scenario
def plot_public_embed():
    url = py.plot(figure([1, 2, 1], "Public"), filename="public plot", auto_open=False)
    owner, number = url.rstrip("/").split("/~")[1].split("/")
    return {
        "url": url,
        "embed": tls.get_embed(url),
        "embed_by_id": tls.get_embed(owner, number, width=600, height=400),
        "figure_by_id": py.get_figure(owner, number, raw=True),
    }


ROUND_TRIP = {
    "data": [
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": ["2026-01-01", "2026-01-02", "2026-01-03"],
            "y": [1.5, None, -3],
            "text": ["a", "b", "c"],
            "marker": {"color": [1, 2, 3], "size": 12, "colorscale": "Viridis"},
        },
        {"type": "bar", "x": ["apples", "pears"], "y": [3, 4], "name": "fruit"},
        {"type": "pie", "labels": ["x", "y", "z"], "values": [10, 20, 30], "domain": {"x": [0.6, 1]}},
        {"type": "heatmap", "z": [[1, 2], [3, 4]], "xaxis": "x2", "yaxis": "y2"},
    ],
    "layout": {"title": {"text": "Round trip"}, "xaxis": {"title": {"text": "when"}}, "width": 800},
}


@scenario
def get_figure_round_trip():
    url = py.plot(ROUND_TRIP, filename="round trip", auto_open=False)
    # What plot() sends: the figure validated by plotly.graph_objs (named colorscales expanded,
    # the default template added), before its arrays move to a grid.
    sent = plotly.tools.return_figure_from_figure_or_data(ROUND_TRIP, True)
    return {"url": url, "sent": sent, "raw": py.get_figure(url, raw=True), "figure": fetched(url)}


def uploaded_grid(filename, **kwargs):
    grid = Grid([Column([1, 2, 3], "time"), Column(["a", "b", "c"], "label")])
    url = py.grid_ops.upload(grid, filename, auto_open=False, **kwargs)
    return grid, url


def grid_columns(url):
    return {column.name: list(column.data) for column in py.get_grid(url)}


@scenario
def grid_upload():
    grid, url = uploaded_grid("grid ops")
    plot = py.plot([Scatter(xsrc=grid[0].id, ysrc=grid[1].id)], filename="plot from grid", auto_open=False)
    return {
        "url": url,
        "ids": [column.id for column in grid],
        "columns": grid_columns(url),
        "raw": py.get_grid(url, raw=True),
        "plot": plot,
        "figure": fetched(plot),
    }


@scenario
def grid_overwrite():
    _, first = uploaded_grid("grid twice")
    grid = Grid([Column([9, 8], "other")])
    second = py.grid_ops.upload(grid, "grid twice", auto_open=False)
    return {"first": first, "second": second, "columns": grid_columns(second)}


@scenario
def grid_append_columns():
    grid, url = uploaded_grid("append columns")
    py.grid_ops.append_columns([Column([10, 20, 30], "voltage"), Column([True, False, True], "ok")], grid=grid)
    py.grid_ops.append_columns([Column(["x"], "by url")], grid_url=url)
    return {"url": url, "ids": [column.id for column in grid], "columns": grid_columns(url)}


@scenario
def grid_append_rows():
    grid, url = uploaded_grid("append rows")
    py.grid_ops.append_rows([[4, "d"], [5, "e"]], grid=grid)
    local = {column.name: list(column.data) for column in grid}
    # Columns of unequal length: the shorter are padded with "" before the rows go in.
    uneven = Grid([Column([1, 2, 3], "long"), Column([1], "short")])
    uneven_url = py.grid_ops.upload(uneven, "uneven", auto_open=False)
    py.grid_ops.append_rows([[4, 2]], grid_url=uneven_url)
    return {"url": url, "local": local, "columns": grid_columns(url), "uneven": grid_columns(uneven_url)}


@scenario
def grid_million_rows():
    # A long grid by the column verbs: a time column uploaded, three value columns appended in one
    # request (about 60 MB), read back whole and compared here, value for value.
    import random
    from datetime import datetime, timedelta, timezone

    rows = 1_000_000
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    time = [(start + timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S") for i in range(rows)]
    rng = random.Random(39)
    values = {name: [rng.uniform(-1e6, 1e6) for _ in range(rows)] for name in ("a", "b", "c")}
    values["c"][5] = ""
    grid = Grid([Column(time, "time")])
    url = py.grid_ops.upload(grid, "a million rows", auto_open=False)
    py.grid_ops.append_columns([Column(data, name) for name, data in values.items()], grid=grid)
    back = {column.name: list(column.data) for column in py.get_grid(url)}
    sent = {"time": time, **values}
    return {"url": url, "names": list(back), "rows": [len(back[n]) for n in back], "equal": back == sent}


@scenario
def grid_columns_api():
    # The v2 column calls the client offers beside grid_ops (chart_studio.api.v2.grids).
    grid, url = uploaded_grid("column calls")
    fid = grid.id
    time_uid, label_uid = (column.id.split(":")[2] for column in grid)
    read = v2.grids.col_retrieve(fid, label_uid + "," + time_uid).json()
    cols = '[{"name": "label2", "data": ["p", "q"]}]'
    updated = v2.grids.col_update(fid, label_uid, {"cols": cols}).json()
    v2.grids.col_delete(fid, time_uid)
    return {"fid": fid, "uids": [time_uid, label_uid], "read": read, "updated": updated, "columns": grid_columns(url)}


@scenario
def grid_meta():
    meta = {"settings": {"scope1": {"model": "Unicorn Finder", "voltage": 4}}}
    with_meta, with_meta_url = uploaded_grid("grid with meta", meta=meta)
    grid, url = uploaded_grid("meta later")
    answer = py.meta_ops.upload({"experiment": "GaAs"}, grid_url=url)
    return {"with_meta": with_meta.id, "later": grid.id, "answer": answer}


@scenario
def grid_delete():
    grid, url = uploaded_grid("delete me")
    fid = grid.id
    py.grid_ops.delete(grid)
    _, again = uploaded_grid("delete me")
    return {"deleted": fid, "again": again}


def magic(data):
    return {"length": len(data), "head": data[:64].hex()}


FORMATS = ["png", "jpeg", "svg", "pdf", "emf"]


@scenario
def images():
    fig = {"data": [{"type": "bar", "x": [1, 2, 3], "y": [3, 1, 5]}], "layout": {"title": {"text": "Export"}}}
    got = {fmt: magic(py.image.get(fig, fmt)) for fmt in FORMATS}
    sized = magic(py.image.get(fig, "png", width=300, height=200, scale=2))
    saved = {}
    with tempfile.TemporaryDirectory() as tmp:
        py.image.save_as(fig, os.path.join(tmp, "x.png"))
        py.image.save_as(fig, os.path.join(tmp, "y"), format="jpeg")
        py.image.save_as(fig, os.path.join(tmp, "z.pdf"))
        for name in sorted(os.listdir(tmp)):
            with open(os.path.join(tmp, name), "rb") as f:
                saved[name] = magic(f.read())
    return {"get": got, "sized": sized, "saved": saved}


@scenario
def folders():
    created = py.file_ops.mkdirs("reports/2026")
    try:
        py.file_ops.mkdirs("reports/2026")
        again = None
    except PlotlyRequestError as e:
        again = {"status": e.status_code, "message": e.message}
    py.file_ops.ensure_dirs("reports/2026")
    py.file_ops.ensure_dirs("reports/2027")
    url = py.plot(figure([1, 1, 2], "In a folder"), filename="reports/2026/q1", auto_open=False)
    return {"created": created, "again": again, "url": url}


def fid_and_key(url):
    """A plot URL's fid ("owner:n") and its share key (None when it has none)."""
    parsed = urllib.parse.urlparse(url)
    owner, number = parsed.path.strip("/").lstrip("~").split("/")[:2]
    key = urllib.parse.parse_qs(parsed.query).get("share_key", [None])[0]
    return "{}:{}".format(owner, number), key


def plain(value):
    """A Dashboard or Presentation (dict subclasses) as the plain JSON value it was when this ran."""
    return json.loads(json.dumps(value))


@scenario
def dashboards():
    a = py.plot(figure([1, 2, 3], "Dash A"), filename="dash a", auto_open=False)
    b = py.plot(figure([3, 2, 1], "Dash B"), filename="dash b", sharing="secret", auto_open=False)
    a_fid, _ = fid_and_key(a)
    b_fid, b_key = fid_and_key(b)
    board = dashboard.Dashboard()
    board.insert({"type": "box", "boxType": "plot", "fileId": a_fid, "title": "A"})
    board.insert({"type": "box", "boxType": "plot", "fileId": b_fid, "shareKey": b_key, "title": "B"}, "right", 1)
    first_sent = plain(board)
    url = py.dashboard_ops.upload(board, "my board", auto_open=False)
    names = py.dashboard_ops.get_dashboard_names()
    first_got = plain(py.dashboard_ops.get_dashboard("my board"))
    board.insert({"type": "box", "boxType": "plot", "fileId": a_fid, "title": "A again"}, "below", 1)
    second_sent = plain(board)
    again = py.dashboard_ops.upload(board, "my board", auto_open=False)
    second_got = plain(py.dashboard_ops.get_dashboard("my board"))
    secret = py.dashboard_ops.upload(board, "secret board", sharing="secret", auto_open=False)
    private = py.dashboard_ops.upload(board, "private board", sharing="private", auto_open=False)
    try:
        py.dashboard_ops.upload(board, "dash a", auto_open=False)
        clash = None
    except Exception as e:
        clash = str(e)
    return {
        "url": url,
        "again": again,
        "secret": secret,
        "private": private,
        "names": names,
        "names_after": py.dashboard_ops.get_dashboard_names(),
        "first_sent": first_sent,
        "first_got": first_got,
        "second_sent": second_sent,
        "second_got": second_got,
        "clash": clash,
    }


@scenario
def presentations():
    chart = py.plot(figure([4, 5, 6], "Deck chart"), filename="deck chart", auto_open=False)
    deck = Presentation("# Hello\nFirst slide text\n---\n# A chart\nPlotly({})\n".format(chart))
    url = py.presentation_ops.upload(deck, "my deck", auto_open=False)
    fid, _ = fid_and_key(url)
    got = json.loads(v2.spectacle_presentations.retrieve(fid).json()["content"])
    other = Presentation("# Replaced\nOnly one slide\n")
    again = py.presentation_ops.upload(other, "my deck", auto_open=False)
    got_again = json.loads(v2.spectacle_presentations.retrieve(fid).json()["content"])
    secret = py.presentation_ops.upload(deck, "secret deck", sharing="secret", auto_open=False)
    return {
        "url": url,
        "again": again,
        "secret": secret,
        "chart": chart,
        "sent": plain(deck),
        "got": got,
        "sent_again": plain(other),
        "got_again": got_again,
        "names": [r["filename"] for r in v2.spectacle_presentations.list().json()["results"]],
    }


@scenario
def bad_key():
    configure(api_key="not-the-key-0123456789")
    try:
        py.plot(figure([1, 2, 3], "Nope"), filename="never", auto_open=False)
    except PlotlyRequestError as e:
        return {"status": e.status_code, "message": e.message}
    return {"status": None}


if __name__ == "__main__":
    run()
