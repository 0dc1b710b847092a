"""Palette PNGs written from kept compressed bands (render.kit.bandpng): whatever was kept from
earlier images, the file decodes to exactly the indices and palette it was given."""
from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageDraw

from render.kit import bandpng
from render.kit.bandpng import BANDS, palette_png


def _palette_image(size: tuple[int, int], seed: int) -> Image.Image:
    """A flat-coloured picture with some noise, in 256 colours."""
    rng = random.Random(seed)
    img = Image.new("RGB", size, (230, 220, 200))
    d = ImageDraw.Draw(img)
    for _ in range(40):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        d.ellipse((x, y, x + rng.randrange(5, 120), y + rng.randrange(5, 80)),
                  fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("size", [(1400, 1236), (300, 170), (1, 1), (997, 64), (2000, 31)])
def test_the_file_decodes_to_the_indices_and_palette_given(size):
    img = _palette_image(size, seed=size[0])
    out = _decoded(palette_png(img))
    assert out.mode == "P" and out.size == size
    assert out.tobytes() == img.tobytes()
    assert out.getpalette() == img.getpalette()
    assert out.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_a_changed_image_reuses_the_bands_it_shares_and_still_decodes_exactly():
    first = _palette_image((1200, 900), seed=1)
    palette_png(first)
    kept = len(BANDS)
    second = first.copy()
    ImageDraw.Draw(second).rectangle((100, 400, 300, 430), fill=7)  # one band or two change
    data = palette_png(second)
    assert len(BANDS) - kept <= 3  # the changed bands, and the one after where its dictionary rows changed
    assert _decoded(data).tobytes() == second.tobytes()
    BANDS.clear()  # written again from nothing: the same file
    assert palette_png(second) == data


def test_a_band_is_compressed_again_only_when_the_rows_it_reaches_back_to_change():
    first = _palette_image((1000, 640), seed=2)
    BANDS.clear()
    palette_png(first)
    kept = len(BANDS)
    middle = first.copy()  # rows 40-49 of band 1 (rows 32-63): its last rows stay as they were
    ImageDraw.Draw(middle).rectangle((0, 40, 999, 49), fill=11)
    palette_png(middle)
    assert len(BANDS) - kept == 1
    last_rows = middle.copy()  # the last row of band 1, which band 2 is compressed against
    ImageDraw.Draw(last_rows).rectangle((0, 63, 999, 63), fill=12)
    data = palette_png(last_rows)
    assert len(BANDS) - kept == 3
    assert _decoded(data).tobytes() == last_rows.tobytes()
    BANDS.clear()


def test_the_checksum_is_the_whole_streams_and_pillow_agrees_on_every_pixel():
    img = _palette_image((640, 480), seed=3)
    data = palette_png(img)
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8:start - 4], "big")
    stream = data[start:start + length]
    rows = zlib.decompress(stream)  # checks the Adler-32 combined from the bands'
    assert len(rows) == (640 + 1) * 480 and all(rows[y * 641] == 0 for y in range(480))
    pillow = io.BytesIO()
    img.save(pillow, "PNG")
    assert _decoded(pillow.getvalue()).tobytes() == _decoded(data).tobytes()


def test_kept_bands_stay_within_their_budget(monkeypatch):
    monkeypatch.setattr(BANDS, "limit", 20_000)
    BANDS.clear()
    for seed in range(6):
        palette_png(_palette_image((800, 400), seed=seed))
        assert BANDS.size <= 20_000
    BANDS.clear()


def test_only_palette_images_are_written():
    with pytest.raises(ValueError):
        bandpng.palette_png(Image.new("RGB", (4, 4)))


def test_bands_as_the_last_image_of_their_size_are_not_hashed_again_and_the_file_is_the_same(monkeypatch):
    first = _palette_image((900, 700), seed=5)
    second = first.copy()
    ImageDraw.Draw(second).rectangle((10, 330, 880, 350), fill=3)  # rows 330-350: band 10 only
    third = second.copy()
    ImageDraw.Draw(third).rectangle((10, 40, 50, 50), fill=9)  # band 1 only, clear of its last rows
    BANDS.clear()
    bandpng._LAST.clear()
    palette_png(first)
    hashed = []

    class Counting:
        @staticmethod
        def sha256(data):
            hashed.append(bytes(data))
            return bandpng.hashlib_sha256(data)

    monkeypatch.setattr(bandpng, "hashlib_sha256", __import__("hashlib").sha256, raising=False)
    monkeypatch.setattr(bandpng, "hashlib", Counting)
    data = [palette_png(second), palette_png(third)]
    band, row = 900 * bandpng.BAND_ROWS, 900
    rows_above_11 = second.tobytes()[11 * band - bandpng.DICT_ROWS * row:11 * band]  # they end at row 351: 350 changed
    assert hashed == [second.tobytes()[10 * band:11 * band], rows_above_11, third.tobytes()[band:2 * band]]
    monkeypatch.undo()
    for img, written in zip((second, third), data):
        assert _decoded(written).tobytes() == img.tobytes()
        BANDS.clear()
        bandpng._LAST.clear()
        assert palette_png(img) == written  # written again from nothing: the same file
