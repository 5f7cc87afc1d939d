""""
grid_objs
=========

"""
from __future__ import absolute_import

from chart_studio.grid_objs.grid_objs import Grid, Column
