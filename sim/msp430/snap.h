// SPDX-License-Identifier: MIT
// Reference state snapshots for --fault-batch (docs/FAULTS.md, "P-256 ECDH on the
// MSP430"): the unfaulted run writes its whole machine state every K counted
// instructions (--fault-snap-out FILE --fault-snap-every K); a batch run reads them
// (--fault-snap-in FILE) and a faulted child whose state at such an index equals the
// reference's byte for byte ends there with ST_CONVERGED: from an equal state the
// simulator is deterministic, so the rest of its run would be the unfaulted run's.
#ifndef MSP430SIM_SNAP_H
#define MSP430SIM_SNAP_H

#include <stdint.h>

extern uint64_t snap_every; // K (0: no snapshots)
extern int snap_reading;    // 1: compare (batch children), 0: write

const char *snap_open_out(const char *path, uint64_t every);
const char *snap_open_in(const char *path);
void snap_write(void);         // the current state as the next record
int snap_equal(uint64_t index); // the current state equals record index / K
void snap_close(void);

#endif
