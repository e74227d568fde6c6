#!/usr/bin/env python3
"""zimage-payload.py ZIMAGE OUT: writes the uncompressed kernel Image that an
ARM zImage carries.

A zImage is a small decompressor followed by the compressed kernel (gzip
for our am335x kernel, xz for Debian's).  Under emulation the decompressor
costs seconds per boot (xz: about 3 s), so the test harness boots the
payload itself, wrapped by mkimage in a U-Boot legacy image that QEMU loads
at 0x80008000 -- exactly the code the decompressor would have put there.

The payload is the first gzip or xz stream, from the start of the file,
that decompresses to something kernel-sized; the decompressor's own bytes
can contain a stray signature, which then fails to decompress or comes out
small.
"""

import lzma
import sys
import zlib

SIGNATURES = ((b"\x1f\x8b\x08", "gzip"), (b"\xfd7zXZ\x00", "xz"))
MIN_KERNEL = 1 << 20


def decompress(data, offset, kind):
    if kind == "gzip":
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    else:
        d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        out = d.decompress(data[offset:])
    except (zlib.error, lzma.LZMAError):
        return None
    return out if len(out) >= MIN_KERNEL else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[0])
    data = open(sys.argv[1], "rb").read()
    # Every occurrence of each signature, tried in file order.
    found = []
    for sig, kind in SIGNATURES:
        i = data.find(sig)
        while i >= 0:
            found.append((i, kind))
            i = data.find(sig, i + 1)
    for offset, kind in sorted(found):
        image = decompress(data, offset, kind)
        if image:
            with open(sys.argv[2], "wb") as f:
                f.write(image)
            print("%s: %s payload at %d, %d bytes uncompressed"
                  % (sys.argv[1], kind, offset, len(image)))
            return
    sys.exit("%s: no gzip or xz kernel payload found" % sys.argv[1])


if __name__ == "__main__":
    main()
