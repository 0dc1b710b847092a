"""Galactic Railway colours and sizes: a night-sky table, ivory tiles with dark track."""
from __future__ import annotations

from render.kit.palette import mix, player_rgb  # noqa: F401 (re-exported)
from render.kit.text import signed  # noqa: F401 (re-exported)

RGB = tuple[int, int, int]

SKY: RGB = (14, 20, 44)  # the table
SKY_CELL: RGB = (26, 35, 70)  # an empty cell where a tile may go
SKY_GRID: RGB = (44, 56, 100)
STAR: RGB = (150, 160, 205)
COORD: RGB = (190, 200, 235)  # column letters and row numbers
FRAME: RGB = (245, 196, 66)  # the 8×8 frame once it is fixed
FRAME_SOFT: RGB = (150, 128, 70)  # a limit of the frame not fixed yet (dashed)
TILE: RGB = (241, 234, 214)
TILE_EDGE: RGB = (120, 110, 90)
TRACK: RGB = (36, 52, 96)
STATION: RGB = (255, 255, 255)  # a transit-map station: white disc, dark ring
STATION_RING: RGB = (36, 52, 96)
SCORE: RGB = (196, 52, 40)  # points in the hand image
LOOP_ALPHA = 190
LOOP_CASING: RGB = (16, 16, 20)
HALF_MARK: RGB = (150, 150, 160)  # half L of a tile without a station (hand image)

PANEL_BG: RGB = (247, 245, 240)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (214, 208, 198)
TEXT: RGB = (28, 28, 32)
MUTED: RGB = (96, 92, 88)
OVER_BG: RGB = (40, 44, 52)

# The board image: the table is a square on the left, the sidebar on the right. Shown 400 px
# wide (a Discord embed), 1140 px shrink 2.85 times: no text below 20 px (7 px seen).
BOARD = 800
SIDEBAR_W = 340
WIDTH, HEIGHT = BOARD + SIDEBAR_W, BOARD
MIN_TEXT = 22
