"""Shared drawing kit used by every game renderer.

One job per module:
  fonts   - locate and load the bundled fonts (data/fonts)
  text    - measure/draw text with CJK + colour-emoji fallback
  palette - seat colours, card colours, readable text colours
  shapes  - rounded rects, pills, rotated rects (train spaces), cards
  chart   - stacked score-breakdown bar chart
  encode  - fast PNG encoding and a static-layer cache
  make_fonts - maintainer script that rebuilds data/fonts from Debian's fonts
"""
