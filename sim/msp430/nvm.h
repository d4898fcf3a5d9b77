// SPDX-License-Identifier: MIT
// Power cuts and non-volatile memory images (docs/PROTOCOL.md, power-cut test):
//   --nvm-load ADDR:FILE      after the image is loaded, copy FILE's bytes to ADDR (FRAM)
//   --nvm-dump ADDR:LEN:FILE  at the end of the run, however it ends (exit, error, power
//                             cut), write LEN bytes from ADDR to FILE
//   --power-cut N             cut the power before counted instruction N (from 0) of the
//                             --fault-window / --fault-range counting (default: every
//                             instruction): the run ends there with status 211
#ifndef MSP430SIM_NVM_H
#define MSP430SIM_NVM_H

// Takes the option at argv[*i] (and its argument, advancing *i) if it is one of the
// above: 1; else 0. Calls usage() on a malformed argument.
int nvm_option(int argc, char **argv, int *i, void (*usage)(void));
// After the ELF is loaded: copy the --nvm-load image, arrange the --nvm-dump. Returns 0
// or a simulator status.
int nvm_start(void);

#endif
