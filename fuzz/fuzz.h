/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer harnesses in fuzz/: a reader that cuts the fuzzer's input into
 * fields (short input reads as zeros, so every input is a valid test case), and the
 * one way a harness reports a disagreement with its peer library (abort, so libFuzzer
 * saves the input as a crash-* file and `make fuzz` counts it as a finding). */
#ifndef MB_FUZZ_H
#define MB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

/* Copy len bytes from the input into out; bytes past the end of the input read 0. */
static inline void fz_take(fz_in *in, uint8_t *out, size_t len)
{
    size_t k = in->n < len ? in->n : len;
    memcpy(out, in->p, k);
    memset(out + k, 0, len - k);
    in->p += k;
    in->n -= k;
}

static inline uint32_t fz_u8(fz_in *in)
{
    uint8_t b;
    fz_take(in, &b, 1);
    return b;
}

static inline uint32_t fz_u16(fz_in *in)
{
    uint8_t b[2];
    fz_take(in, b, 2);
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8);
}

/* 1 if every byte of p[0..n) is zero. */
static inline int fz_all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    size_t i;
    for (i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

static inline void fz_hex(const char *name, const uint8_t *p, size_t n)
{
    size_t i;
    fprintf(stderr, "  %s = ", name);
    for (i = 0; i < n && i < 96; i++) fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, "%s\n", n > 96 ? "..." : "");
}

/* A disagreement (or a broken contract): name it and abort. */
#define FZ_FAIL(...)                                                                   \
    do {                                                                               \
        fprintf(stderr, "DISAGREEMENT %s:%d: ", __FILE__, __LINE__);                   \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fprintf(stderr, "\n");                                                         \
        abort();                                                                       \
    } while (0)

#define FZ_CHECK(cond, ...)                                                            \
    do {                                                                               \
        if (!(cond)) FZ_FAIL(__VA_ARGS__);                                             \
    } while (0)

/* With MB_FUZZ_SELFTEST set in the environment every input is a disagreement: the
 * negative control of tests/test_fuzz.py (a harness that cannot fail proves nothing). */
#define FZ_SELFTEST()                                                                  \
    do {                                                                               \
        static int selftest_ = -1;                                                     \
        if (selftest_ < 0) selftest_ = getenv("MB_FUZZ_SELFTEST") != NULL;             \
        if (selftest_) FZ_FAIL("self-test (MB_FUZZ_SELFTEST is set)");                 \
    } while (0)

/* The entry point of a differential harness: the self-test, then fn(data, size), the
 * harness's own static function (defined after this line). */
#define FZ_ENTRY(fn)                                                                   \
    static int fn(const uint8_t *data, size_t size);                                   \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                       \
    {                                                                                  \
        FZ_SELFTEST();                                                                 \
        return fn(data, size);                                                         \
    }

/* libFuzzer's entry point (declared for -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
