/* SPDX-License-Identifier: MIT */
/* Constant-time check under valgrind memcheck (test-only, never in src/).
 *
 * Secret inputs are marked undefined with VALGRIND_MAKE_MEM_UNDEFINED before a call into
 * the library; memcheck then reports every branch, memory address or system call that
 * depends on them ("Conditional jump or move depends on uninitialised value(s)",
 * "Use of uninitialised value"). Outputs are marked defined again only after the API
 * call returns (ct_public), since they are meant to leave the function.
 *
 * Adding a case is one function in any tests/ct/ct_*.c file (mk/checks.mk links them
 * all into build/hostcheck/ct/rNN/ct_check):
 *
 *     CT_CASE(my_function) {
 *         uint8_t k[32], out[32];
 *         ct_random(k, 32);
 *         ct_secret(k, 32);
 *         my_function(out, k);
 *         ct_public(out, 32);
 *         CT_EXPECT(out[0] == ...);   (optional functional check)
 *     }
 *
 * Without valgrind the same binary runs the cases as plain functional tests. */
#ifndef MB_TESTS_CT_H
#define MB_TESTS_CT_H

#include <stddef.h>
#include <stdint.h>
#include <valgrind/memcheck.h>

struct ct_case {
    const char *name;
    void (*fn)(void);
    struct ct_case *next;
};
void ct_register(struct ct_case *c);

#define CT_CASE(name)                                                              \
    static void ct_case_##name(void);                                              \
    static struct ct_case ct_rec_##name = { #name, ct_case_##name, 0 };            \
    __attribute__((constructor)) static void ct_reg_##name(void)                   \
    { ct_register(&ct_rec_##name); }                                               \
    static void ct_case_##name(void)

/* Mark n bytes at p secret (undefined) / public (defined). */
#define ct_secret(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define ct_public(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))

/* Deterministic pseudo-random bytes (xorshift64*): inputs differ per call. */
void ct_random(void *p, size_t n);

/* Functional check on public (declassified) values; counts a failure. */
void ct_fail(const char *file, int line, const char *what);
#define CT_EXPECT(cond) do { if (!(cond)) ct_fail(__FILE__, __LINE__, #cond); } while (0)

/* Repetitions per case (different random inputs each time). */
#define CT_REPS 3

#endif
