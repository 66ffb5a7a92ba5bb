#!/usr/bin/env python3
"""Writes the small image fixtures of GridReaderFixturesTest with numpy and zlib only (no imaging
library), so that the Java readers are checked against files that another tool produced.
The pixel values follow the formulas that the test recomputes. Run from this directory:
    python3 make-fixtures.py
"""
import struct
import zlib

import numpy as np

W, H = 7, 5
y, x = np.mgrid[0:H, 0:W]


def png(name, width, height, color_type, bit_depth, rows, palette=None):
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b''.join(b'\x00' + bytes(r) for r in rows)
    out = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, bit_depth, color_type, 0, 0, 0))
    if palette is not None:
        out += chunk(b'PLTE', bytes(c for rgb in palette for c in rgb))
    out += chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
    open(name, 'wb').write(out)


grey8 = (x * 37 + y * 11) % 256
png('grey8.png', W, H, 0, 8, grey8.astype(np.uint8))

grey16 = (x * 9001 + y * 4099) % 65536
png('grey16.png', W, H, 0, 16, grey16.astype('>u2').view(np.uint8).reshape(H, 2 * W))

# 1-bit greyscale, 9 wide: the rows' bits are packed across byte boundaries
bits = ((np.mgrid[0:3, 0:9][1] ** 2 + np.mgrid[0:3, 0:9][0]) % 3 == 0).astype(np.uint8)
png('grey1.png', 9, 3, 0, 1, np.packbits(bits, axis=1))

alpha = (x * 50 + y) % 256
png('grey-alpha.png', W, H, 4, 8, np.stack([grey8, alpha], axis=-1).astype(np.uint8).reshape(H, 2 * W))

palette = [(255, 0, 0), (0, 128, 255), (10, 200, 30), (250, 250, 250)]
index = (x + 2 * y) % 4
png('palette.png', W, H, 3, 8, index.astype(np.uint8), palette)

rgb = np.stack([(x * 50) % 256, (y * 60) % 256, (x * y * 13) % 256], axis=-1).astype(np.uint8)
png('rgb.png', W, H, 2, 8, rgb.reshape(H, 3 * W))

# P5 with 16-bit big-endian samples and comments in the header
with open('grey16.pgm', 'wb') as f:
    f.write(b'P5\n# written by make-fixtures.py\n7 # width\n5\n# maxval follows\n65535\n')
    f.write(grey16.astype('>u2').tobytes())

# P2 with comments, tabs and ragged lines
with open('grey8-ascii.pgm', 'w') as f:
    f.write('P2\n# a comment line\n7\t5 255\n')
    values = grey8.flatten()
    for k in range(0, len(values), 4):
        f.write(' '.join(str(v) for v in values[k:k + 4]) + ('  # comment after samples\n' if k == 8 else '\n'))
