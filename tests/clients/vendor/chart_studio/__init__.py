from __future__ import absolute_import
from chart_studio import plotly, dashboard_objs, grid_objs, session, tools
