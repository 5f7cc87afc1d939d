from __future__ import absolute_import

from chart_studio.api.v2 import (
    dash_apps,
    dashboards,
    files,
    folders,
    grids,
    images,
    plot_schema,
    plots,
    spectacle_presentations,
    users,
)
