// SPDX-License-Identifier: MIT
// Cycle-model test program: leaves with the status chosen at build time, through
// return from main (EXIT_HOW=0), exit() (1) or abort() (2).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    printf("status %d via %d\n", STATUS, EXIT_HOW);
    if (EXIT_HOW == 1)
        exit(STATUS);
    if (EXIT_HOW == 2)
        abort();
    return STATUS;
}
