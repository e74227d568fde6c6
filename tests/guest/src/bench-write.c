/*
 * bench-write SRC DST BUFFER PASSES: the write side of the storage bench
 * (tests/guest/bench-storage.sh), the system calls of the tool TI measured
 * its PSP guide with (LTP-DDT's filesystem_tests -write): SRC is mapped,
 * DST is written PASSES times over with write()s of BUFFER bytes straight
 * from the mapping (the last one of a pass shorter if BUFFER does not
 * divide SRC), then fsync()ed.  dd would copy each buffer twice, from
 * SRC into its own buffer and from there into the page cache; the tool
 * and this copy once.
 *
 * Built for the guest by scripts/images (arm-linux-gnueabihf-gcc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what, const char *name)
{
    fprintf(stderr, "bench-write: %s %s: %s\n", what, name, strerror(errno));
    return 1;
}

static long positive(const char *arg, const char *what)
{
    long v;
    char extra;

    if (sscanf(arg, "%ld%c", &v, &extra) != 1 || v <= 0) {
        fprintf(stderr, "bench-write: %s must be a positive number, not '%s'\n",
                what, arg);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    struct stat st;
    const char *src;
    size_t size, buffer, off;
    long pass, passes;
    int in, out;

    if (argc != 5) {
        fprintf(stderr, "usage: bench-write SRC DST BUFFER PASSES\n");
        return 2;
    }
    buffer = positive(argv[3], "BUFFER");
    passes = positive(argv[4], "PASSES");

    in = open(argv[1], O_RDONLY);
    if (in < 0 || fstat(in, &st) < 0) {
        return fail("cannot open", argv[1]);
    }
    size = st.st_size;
    if (size == 0) {
        fprintf(stderr, "bench-write: %s is empty\n", argv[1]);
        return 1;
    }
    src = mmap(NULL, size, PROT_READ, MAP_PRIVATE, in, 0);
    if (src == MAP_FAILED) {
        return fail("cannot map", argv[1]);
    }
    out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) {
        return fail("cannot create", argv[2]);
    }

    for (pass = 0; pass < passes; pass++) {
        for (off = 0; off < size; off += buffer) {
            size_t len = size - off < buffer ? size - off : buffer;
            ssize_t done = write(out, src + off, len);

            if (done < 0) {
                return fail("cannot write", argv[2]);
            }
            /* The tool takes a short write (a full disk) as a failure too. */
            if ((size_t)done != len) {
                fprintf(stderr, "bench-write: %s: wrote %zd of %zu bytes\n",
                        argv[2], done, len);
                return 1;
            }
        }
    }
    if (fsync(out) < 0) {
        return fail("cannot fsync", argv[2]);
    }
    if (close(out) < 0) {
        return fail("cannot close", argv[2]);
    }
    return 0;
}
