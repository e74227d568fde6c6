/*
 * Binary BCH codes over GF(2^13) as the AM335x GPMC and ELM use them
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_BLOCK_AM335X_BCH_H
#define HW_BLOCK_AM335X_BCH_H

/* GF(2^13), primitive polynomial x^13 + x^4 + x^3 + x + 1 */
#define AM335X_BCH_M            13
#define AM335X_BCH_N            ((1 << AM335X_BCH_M) - 1)
#define AM335X_BCH_MAX_T        16
/* Parity bits: 13 * t, at most 208 */
#define AM335X_BCH_MAX_BITS     (AM335X_BCH_M * AM335X_BCH_MAX_T)
#define AM335X_BCH_WORDS        ((AM335X_BCH_MAX_BITS + 31) / 32)

/*
 * A remainder (parity or syndrome polynomial) of up to 208 bits: word k
 * holds the coefficients of x^(32k) to x^(32k+31), the layout of the
 * GPMC_BCH_RESULTk and ELM_SYNDROME_FRAGMENT_k registers.
 */
typedef struct AM335xBchRem {
    uint32_t w[AM335X_BCH_WORDS];
} AM335xBchRem;

/* t: 4, 8 or 16 (BCH4, BCH8, BCH16) */
unsigned am335x_bch_parity_bits(unsigned t);

/*
 * Shift @nbits (1..8) bits of @bits, most significant first, into the
 * division by the generator polynomial: rem = (rem * x^n + bits * x^deg)
 * mod g.  Fed a sector and then its parity, the remainder is the syndrome
 * polynomial (zero for a codeword).
 */
void am335x_bch_feed(AM335xBchRem *rem, unsigned t, uint8_t bits,
                     unsigned nbits);

/*
 * Decode the syndrome polynomial @rem of a codeword of @cw_bits bits: on
 * success returns the number of errors (0..t) and their bit positions
 * (degree in the codeword polynomial: 0 is the last parity bit) in @loc;
 * -1 when the errors cannot be corrected.
 */
int am335x_bch_decode(const AM335xBchRem *rem, unsigned t, unsigned cw_bits,
                      uint16_t *loc);

#endif
