/* SPDX-License-Identifier: MIT */
/* The box stream part of the target suite (tests/target/suite.c) as its own image: with
 * the fault hardening, the small-profile suite without P-256 no longer fits the FR5969's
 * 48 KB of 16-bit-addressable FRAM in the 16-bit multiplier's assembly build, so
 * suite.elf is built without the stream suite (MBT_NO_STREAM) and this file runs only
 * it, reusing suite.c's code unchanged (its main is renamed and, unreferenced, dropped by
 * --gc-sections with the other suites and their vectors). Same output format. */
#define MB_HAVE_P256 0
int suite_all_main(void);
#define main suite_all_main
#include "suite.c"
#undef main

int main(void);
int main(void)
{
    tp_str("motebox target suite, profile " MBT_PROFILE ", stream part");
    tp_nl();
    run_stream();
    return summary();
}
