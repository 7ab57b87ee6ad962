#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# A 1920x1080 picture of photographs at their own scale, for timing the
# stages on natural texture (docs/quality.md, "Empty columns skipped"): twelve
# 480x360 tiles, each the top-left corner of one of the harness's source
# photographs (Debian's python3-skimage, which tools/quality/run.sh fetches
# into out/quality-auto/cache).
#
#   /usr/bin/python3 tools/quality/mosaic.py OUT.png

import os
import sys

from PIL import Image

DATA = "out/quality-auto/cache/usr/lib/python3/dist-packages/skimage/data"
NAMES = ["astronaut", "camera", "coffee", "motorcycle_left", "motorcycle_right",
         "brick", "gravel", "grass", "moon", "cell", "ihc", "chelsea"]
TILE = (480, 360)


def main():
    out = Image.new("RGB", (4 * TILE[0], 3 * TILE[1]))
    for i, name in enumerate(NAMES):
        im = Image.open(os.path.join(DATA, name + ".png")).convert("RGB")
        tile = im.crop((0, 0, min(im.width, TILE[0]), min(im.height, TILE[1])))
        if tile.size != TILE:
            tile = tile.resize(TILE)
        out.paste(tile, ((i % 4) * TILE[0], (i // 4) * TILE[1]))
    out.save(sys.argv[1])


if __name__ == "__main__":
    main()
