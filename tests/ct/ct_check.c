/* SPDX-License-Identifier: MIT */
/* Driver of the valgrind constant-time harness: runs every registered CT_CASE (or those
 * named on the command line) CT_REPS times. Exit status 0 iff every functional check
 * held; memcheck's own verdict comes from valgrind --error-exitcode. */
#include <stdio.h>
#include <string.h>
#include "ct.h"

static struct ct_case *cases;
static int failures;
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

void ct_register(struct ct_case *c)
{
    c->next = cases;
    cases = c;
}

void ct_random(void *p, size_t n)
{
    uint8_t *b = p;
    size_t i;
    for (i = 0; i < n; i++) {
        rng_state ^= rng_state >> 12;
        rng_state ^= rng_state << 25;
        rng_state ^= rng_state >> 27;
        b[i] = (uint8_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 56);
    }
}

void ct_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    failures++;
}

static int selected(const char *name, int argc, char **argv)
{
    int i;
    if (argc < 2) return 1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct ct_case *c;
    int ran = 0, r;
    for (c = cases; c; c = c->next) {
        if (!selected(c->name, argc, argv)) continue;
        for (r = 0; r < CT_REPS; r++) c->fn();
        printf("ct case %s: ran %d times\n", c->name, CT_REPS);
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "no case selected\n");
        return 2;
    }
    return failures ? 1 : 0;
}
