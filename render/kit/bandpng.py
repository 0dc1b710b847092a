"""Palette PNGs written from compressed bands that are kept from one board to the next.

Deflating a board's 1-2 million palette indices was the largest part of a move's picture, yet
a move changes a board in a few places. So the rows of a palette image are cut into bands of
BAND_ROWS rows, and each band is deflated on its own (raw deflate ended by a sync flush: it
starts on a byte boundary), its matches reaching back only into the last DICT_ROWS rows of the
band before (its dictionary). Compressed bands are kept, keyed by their bytes and those rows (a
digest of each), so a band drawn before under the same rows, on this board or any other, costs
a digest and a look-up. A PNG is then the bands' compressed bytes one after another inside one zlib
stream: the zlib header, the bands, an empty final block, and the Adler-32 of the whole,
combined from the bands' own checksums. Every row is written with filter type 0 (none), as
Pillow writes palette images, so the PNG decodes to exactly the indices and palette given.

Bands compressed on their own lose what the bands before would have offered as matches; the
measured cost, the rows of the dictionary and the level chosen are in render/kit/encode.py.

Finding a band's digest cost about 1 ms a board (SHA-256 over 1-2 MB of indices), most of it for
bands that are byte for byte those of the board before. So the indices and band digests of the
last image written of each size are kept (within LAST_BYTES): a band equal to the same band of
the last image of its size takes that band's digest (comparing bytes costs a tenth of hashing
them), and its dictionary rows likewise; only the others are hashed.
"""
from __future__ import annotations

import hashlib
import struct
import zlib

from PIL import Image

from render.kit.kept import Kept

BAND_ROWS = 32
# A band is compressed against the last DICT_ROWS rows of the band before (its dictionary): with
# every row unfiltered, a row's matches lie mostly in the rows just above it (the rows chosen in
# render/kit/encode.py).
DICT_ROWS = 6
LEVEL = 5  # zlib's, as render.kit.encode.COMPRESS_LEVEL for whole images
CACHE_BYTES = 24 * 2**20  # compressed bands kept (a board's are 40-150 KiB: well over a hundred boards)

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"
_FINAL_BLOCK = b"\x03\x00"  # a final, empty block of fixed codes
_ADLER_BASE = 65521


# compressed bands by digest: (deflated bytes, their Adler-32)
BANDS: Kept[tuple[bytes, int]] = Kept(CACHE_BYTES, lambda band: len(band[0]))

# the last image written of each size: (its indices, each band's digest, the digest of each band's
# dictionary rows)
LAST_BYTES = 10 * 2**20  # a board's indices are 1-2.3 MB: the last 4-8 boards
_LAST: Kept[tuple[bytes, tuple[bytes, ...], tuple[bytes, ...]]] = Kept(LAST_BYTES, lambda last: len(last[0]))


def palette_png(img: Image.Image) -> bytes:
    """PNG bytes of a "P" image (8-bit indices, no transparency), from the kept bands."""
    if img.mode != "P":
        raise ValueError(f"a palette image is needed, not {img.mode}")
    width, height = img.size
    data = img.tobytes()
    indices = memoryview(data)
    step = width * BAND_ROWS
    parts: list[bytes] = [_ZLIB_HEADER]
    adler = 1
    last = _LAST.get(img.size)
    digests: list[bytes] = []
    tails: list[bytes] = []  # per band, the digest of the rows above it it is compressed against
    tail = DICT_ROWS * width
    for start in range(0, len(indices), step):
        band = indices[start:start + step]
        above = indices[max(0, start - tail):start]  # empty for the first band
        if last is not None and data[start:start + step] == last[0][start:start + step]:
            digest = last[1][len(digests)]
        else:
            digest = hashlib.sha256(band).digest()
        if not start:
            above_digest = b""
        elif last is not None and data[start - len(above):start] == last[0][start - len(above):start]:
            above_digest = last[2][len(tails)]
        else:
            above_digest = hashlib.sha256(above).digest()
        digests.append(digest)
        tails.append(above_digest)
        key = above_digest + digest
        found = BANDS.get(key)
        if found is None:
            rows = _rows(band, width)
            if start:
                packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, zdict=_rows(above, width))
            else:
                packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
            found = (packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows))
            BANDS.put(key, found)
        parts.append(found[0])
        adler = _adler_combine(adler, found[1], len(band) + len(band) // width)
    _LAST.replace(img.size, (data, tuple(digests), tuple(tails)))
    parts.append(_FINAL_BLOCK)
    parts.append(struct.pack(">I", adler))
    palette = img.im.getpalette("RGB")
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))


def _rows(band: memoryview, width: int) -> bytes:
    """A band's rows as a PNG stores them: each behind its filter type, 0 (none)."""
    return b"".join(b"\0" + band[i:i + width] for i in range(0, len(band), width))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return (sum2 << 16) | sum1
