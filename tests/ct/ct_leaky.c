/* SPDX-License-Identifier: MIT */
/* Negative control, linked only into the ct_leaky binary: two deliberately leaky toy
 * functions that the harness must flag, proving the check can fail. Never part of
 * ct_check. */
#include "ct.h"

/* Early-exit comparison: branches on secret bytes. */
static int __attribute__((noinline)) leaky_compare(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return -1;
    return 0;
}

/* Table lookup at a secret index. */
static uint8_t __attribute__((noinline)) leaky_lookup(const uint8_t table[256], uint8_t secret)
{
    return table[secret];
}

CT_CASE(leaky_branch)
{
    uint8_t k[16], guess[16];
    int rc;
    ct_random(k, 16);
    ct_random(guess, 16);
    ct_secret(k, 16);
    rc = leaky_compare(k, guess, 16);
    ct_public(&rc, sizeof rc);
    (void)rc;
}

CT_CASE(leaky_index)
{
    static uint8_t table[256];
    uint8_t s, v;
    ct_random(table, sizeof table);
    ct_random(&s, 1);
    ct_secret(&s, 1);
    v = leaky_lookup(table, s);
    ct_public(&v, 1);
    (void)v;
}
