/* SPDX-License-Identifier: MIT */
/* The P-256 part of the portable target suite (tests/target/suite.c) as its own image:
 * the whole small-profile suite does not fit the FR5969's 48 KB of 16-bit-addressable
 * FRAM, so suite.elf runs it without P-256 and this file runs only the P-256 suites,
 * reusing suite.c's code unchanged (its main is renamed and, unreferenced, dropped by
 * --gc-sections together with the X25519 and NaCl vectors). Same output format. */
#define MB_HAVE_P256 1
int suite_all_main(void);
#define main suite_all_main
#include "suite.c"
#undef main

int main(void);
int main(void)
{
    tp_str("motebox target suite, profile " MBT_PROFILE ", P-256 part");
    tp_nl();
    run_p256_ecdh("wycheproof_p256", mbt_wycheproof_p256, mbt_wycheproof_p256_count);
    run_p256_ecdh("ossl_p256_ecdh", mbt_ossl_p256_ecdh, mbt_ossl_p256_ecdh_count);
    run_p256_base();
    return summary();
}
