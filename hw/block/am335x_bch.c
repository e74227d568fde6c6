/*
 * Binary BCH codes over GF(2^13) as the AM335x GPMC and ELM use them
 *
 * The GPMC's BCH engine divides the bit stream of a sector (each byte
 * most significant bit first) by the code's generator polynomial g(x):
 * written data gives the parity r(x) = d(x) * x^deg mod g(x) that goes to
 * the spare area, read data followed by its parity gives the syndrome
 * polynomial s(x) = c(x) * x^deg mod g(x), zero for an intact codeword.
 * The ELM turns s(x) into error locations: the power sums
 * S_j = c(alpha^j) = s(alpha^j) * alpha^(-deg * j), j = 1..2t, then
 * Berlekamp-Massey for the error locator and a Chien search over the
 * codeword's bit positions.
 *
 * g(x) is the product of the minimal polynomials of alpha^1..alpha^2t in
 * GF(2^13) with the primitive polynomial x^13 + x^4 + x^3 + x + 1; with
 * it, 512 bytes of 0xff have the BCH8 parity 10 ae d1 f6 12 6c 65 3d 68
 * 86 1a db 4a, the complement of the "bch8_polynomial" Linux's omap2 NAND
 * driver adds to the hardware's result, and read back with 13 bytes of
 * 0xff give the syndrome it knows as an erased page ("bch8_vector").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/thread.h"
#include "hw/block/am335x_bch.h"

#define BCH_PRIM_POLY   0x201b
#define BCH_NUM_LEVELS  3

static uint16_t gf_exp[2 * AM335X_BCH_N];
static uint16_t gf_log[AM335X_BCH_N + 1];
/* g(x) without its x^deg term, for t = 4, 8, 16 */
static AM335xBchRem bch_gen[BCH_NUM_LEVELS];
static unsigned bch_gen_deg[BCH_NUM_LEVELS];

static unsigned bch_level(unsigned t)
{
    return t <= 4 ? 0 : t <= 8 ? 1 : 2;
}

static unsigned bch_t(unsigned level)
{
    return 4 << level;
}

static uint16_t gf_mul(uint16_t a, uint16_t b)
{
    if (!a || !b) {
        return 0;
    }
    return gf_exp[gf_log[a] + gf_log[b]];
}

static uint16_t gf_div(uint16_t a, uint16_t b)
{
    if (!a) {
        return 0;
    }
    return gf_exp[(gf_log[a] + AM335X_BCH_N - gf_log[b]) % AM335X_BCH_N];
}

/* alpha^e for any integer e */
static uint16_t gf_pow(int64_t e)
{
    e %= AM335X_BCH_N;
    if (e < 0) {
        e += AM335X_BCH_N;
    }
    return gf_exp[e];
}

/* Multiply the GF(2) polynomial @p (bits, degree < 256) by @q. */
static void poly2_mul(uint64_t p[4], const uint64_t q[4])
{
    uint64_t r[4] = { 0 };

    for (int i = 0; i < 256; i++) {
        if (!(q[i / 64] & BIT_ULL(i % 64))) {
            continue;
        }
        for (int j = 0; j + i < 256; j++) {
            if (p[j / 64] & BIT_ULL(j % 64)) {
                r[(i + j) / 64] ^= BIT_ULL((i + j) % 64);
            }
        }
    }
    memcpy(p, r, sizeof(r));
}

/* The minimal polynomial of alpha^e over GF(2), as bits */
static void minimal_poly(unsigned e, uint64_t out[4], bool *seen)
{
    uint16_t coef[AM335X_BCH_M + 1] = { 1 };
    unsigned deg = 0;
    unsigned c = e;

    do {
        /* multiply by (x + alpha^c) */
        uint16_t a = gf_exp[c];

        seen[c] = true;
        for (int i = deg + 1; i > 0; i--) {
            coef[i] = coef[i - 1] ^ gf_mul(coef[i], a);
        }
        coef[0] = gf_mul(coef[0], a);
        deg++;
        c = (c * 2) % AM335X_BCH_N;
    } while (c != e);

    memset(out, 0, 4 * sizeof(uint64_t));
    for (unsigned i = 0; i <= deg; i++) {
        /* the coefficients of a minimal polynomial are 0 or 1 */
        if (coef[i]) {
            out[i / 64] |= BIT_ULL(i % 64);
        }
    }
}

static void bch_init_tables(void)
{
    uint32_t x = 1;

    for (int i = 0; i < AM335X_BCH_N; i++) {
        gf_exp[i] = x;
        gf_exp[i + AM335X_BCH_N] = x;
        gf_log[x] = i;
        x <<= 1;
        if (x & BIT(AM335X_BCH_M)) {
            x ^= BCH_PRIM_POLY;
        }
    }
    for (unsigned level = 0; level < BCH_NUM_LEVELS; level++) {
        g_autofree bool *seen = g_new0(bool, AM335X_BCH_N);
        uint64_t g[4] = { 1 };
        unsigned deg = 0;

        for (unsigned j = 1; j <= 2 * bch_t(level); j++) {
            uint64_t mp[4];

            if (seen[j]) {
                continue;
            }
            minimal_poly(j, mp, seen);
            poly2_mul(g, mp);
        }
        for (int i = 255; i >= 0; i--) {
            if (g[i / 64] & BIT_ULL(i % 64)) {
                deg = i;
                break;
            }
        }
        bch_gen_deg[level] = deg;
        for (unsigned i = 0; i < deg; i++) {
            if (g[i / 64] & BIT_ULL(i % 64)) {
                bch_gen[level].w[i / 32] |= BIT(i % 32);
            }
        }
    }
}

static void bch_init(void)
{
    static GOnce once = G_ONCE_INIT;

    g_once(&once, (GThreadFunc)bch_init_tables, NULL);
}

unsigned am335x_bch_parity_bits(unsigned t)
{
    bch_init();
    return bch_gen_deg[bch_level(t)];
}

static bool rem_bit(const AM335xBchRem *r, unsigned i)
{
    return r->w[i / 32] & BIT(i % 32);
}

void am335x_bch_feed(AM335xBchRem *rem, unsigned t, uint8_t bits,
                     unsigned nbits)
{
    unsigned level = bch_level(t);
    const AM335xBchRem *g;
    unsigned deg;

    bch_init();
    g = &bch_gen[level];
    deg = bch_gen_deg[level];
    for (int b = nbits - 1; b >= 0; b--) {
        bool fb = rem_bit(rem, deg - 1) ^ ((bits >> b) & 1);

        /* rem <<= 1, within deg bits */
        for (int k = AM335X_BCH_WORDS - 1; k > 0; k--) {
            rem->w[k] = (rem->w[k] << 1) | (rem->w[k - 1] >> 31);
        }
        rem->w[0] <<= 1;
        for (unsigned k = 0; k < AM335X_BCH_WORDS; k++) {
            if (deg <= 32 * k) {
                rem->w[k] = 0;
            } else if (deg < 32 * (k + 1)) {
                rem->w[k] &= MAKE_64BIT_MASK(0, deg - 32 * k);
            }
        }
        if (fb) {
            for (unsigned k = 0; k < AM335X_BCH_WORDS; k++) {
                rem->w[k] ^= g->w[k];
            }
        }
    }
}

int am335x_bch_decode(const AM335xBchRem *rem, unsigned t, unsigned cw_bits,
                      uint16_t *loc)
{
    uint16_t syn[2 * AM335X_BCH_MAX_T + 1] = { 0 };
    uint16_t lambda[AM335X_BCH_MAX_T + 2] = { 1 };
    uint16_t prev[AM335X_BCH_MAX_T + 2] = { 1 };
    uint16_t tmp[AM335X_BCH_MAX_T + 2];
    unsigned level = bch_level(t);
    unsigned deg, len = 0, shift = 1, nerr = 0;
    uint16_t prev_disc = 1;
    bool any = false;

    bch_init();
    t = bch_t(level);
    deg = bch_gen_deg[level];
    cw_bits = MIN(cw_bits, AM335X_BCH_N);

    /* S_j = s(alpha^j) * alpha^(-deg * j) */
    for (unsigned j = 1; j <= 2 * t; j++) {
        uint16_t s = 0;

        for (unsigned i = 0; i < deg; i++) {
            if (rem_bit(rem, i)) {
                s ^= gf_pow((int64_t)i * j);
            }
        }
        syn[j] = gf_mul(s, gf_pow(-(int64_t)deg * j));
        any |= syn[j] != 0;
    }
    if (!any) {
        return 0;
    }

    /* Berlekamp-Massey */
    for (unsigned n = 0; n < 2 * t; n++) {
        uint16_t d = syn[n + 1];

        for (unsigned i = 1; i <= len; i++) {
            d ^= gf_mul(lambda[i], syn[n + 1 - i]);
        }
        if (!d) {
            shift++;
            continue;
        }
        memcpy(tmp, lambda, sizeof(tmp));
        for (unsigned i = 0; i + shift <= t + 1; i++) {
            lambda[i + shift] ^= gf_mul(gf_div(d, prev_disc), prev[i]);
        }
        if (2 * len <= n) {
            len = n + 1 - len;
            memcpy(prev, tmp, sizeof(prev));
            prev_disc = d;
            shift = 1;
        } else {
            shift++;
        }
    }
    if (len > t) {
        return -1;
    }
    for (unsigned i = len + 1; i <= t + 1; i++) {
        if (lambda[i]) {
            return -1;
        }
    }

    /* Chien search: an error at bit p makes alpha^(-p) a root */
    for (unsigned p = 0; p < cw_bits && nerr <= len; p++) {
        uint16_t v = 0;

        for (unsigned i = 0; i <= len; i++) {
            v ^= gf_mul(lambda[i], gf_pow(-(int64_t)p * i));
        }
        if (!v) {
            if (nerr == len) {
                return -1;
            }
            loc[nerr++] = p;
        }
    }
    return nerr == len ? (int)nerr : -1;
}
