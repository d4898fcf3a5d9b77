; SPDX-License-Identifier: MIT
; Shared macros.
.macro CALLP page sub
  MPS \page
  CALL \sub
.endm
; Salsa20 quarter-round on words a b c d (operands S.W); acc carries the new value on.
.macro QR a b c d
  LD \a
  ADD \d
  ROL 7
  XOR \b
  ST \b
  ADD \a
  ROL 9
  XOR \c
  ST \c
  ADD \b
  ROL 13
  XOR \d
  ST \d
  ADD \c
  ROL 18
  XOR \a
  ST \a
.endm
.macro MOV dst src
  LD \src
  ST \dst
.endm
