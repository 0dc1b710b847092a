"""Shared drawing kit used by every game renderer.

One job per module:
  fonts   - locate and load the bundled fonts (data/fonts)
  text    - measure/draw/wrap text with CJK + colour-emoji fallback, signed points
  palette - seat colours, card colours, readable text colours, mix/darker
  shapes  - rounded rects, pills, rotated rects (train spaces), cards
  chart   - score charts: stacked breakdown bars, score over time (markers + end labels)
  geometry - track paths: bent curves, parallel offsets, arc-length walker, evenly spaced segments
  hexgrid - hex maps in pixels: centres, corners, edge midpoints, bounds, drawing a hex
  labels  - city names placed around their points, covering as little as possible
  events  - the sidebar's wrapped "last events" box, cut so the turn's start and end stay
  highlight - the one look of "the last move": a white halo with a dark edge
  legend  - symbol + label items in wrapped rows
  alt     - alt text: sentences clipped to Discord's limit, shared turn/score/ranking phrases
  vision  - colour-vision check (deuteranopia, protanopia) of a game's Palette
  legibility - minimum text size at 400 px wide, and a recorder of drawn text sizes
  ranking - the final-result image: title, ranking rows, chart
  images  - GameImages, the RENDERER object a game's render package exports
  ended   - the mark on the last view of an abandoned game (the header says so, not whose turn)
  encode  - fast PNG encoding and a static-layer cache
  make_fonts - maintainer script that rebuilds data/fonts from Debian's fonts
"""
