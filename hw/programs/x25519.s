; SPDX-License-Identifier: MIT
; X25519 (RFC 7748) on the ASIP.  Banks: R0 scalar, R1 u (x1), R2 X2, R3 Z2, R4 X3, R5 Z3,
; R6 T1 (and the DH-2 result), R7 L / R8 H (low/high halves of products; scratch).
; Arithmetic mod 2^256 - 38 during the ladder, canonical mod 2^255 - 19 at the end.
; Secrets: the scalar (R0), every ladder value.  CT: the only secret-dependent action
; is LDSW, which sets the bank-swap bit (X2<->X3, Z2<->Z3 address swap); all
; instruction sequences and cycle counts are fixed.

; pages for field routines: fadd/fsub (dst, a, b, H), fmul (L, a, b, H) a = a*b,
; fa24 (-, T1, E, H) T1 += a24*E, fcopy (-, dst, src, -)
.page PKEY   0 0 0 0
.page PI1    0 1 2 3
.page PI2    4 1 5 8
.page L01    6 2 3 8      ; T1 = X2 + Z2          (A)
.page L02    2 2 3 8      ; X2 = X2 - Z2          (B)
.page L03    3 4 5 8      ; Z2 = X3 + Z3          (C)
.page L04    4 4 5 8      ; X3 = X3 - Z3          (D)
.page L05    7 4 6 8      ; X3 = X3 * T1          (DA)
.page L06    7 3 2 8      ; Z2 = Z2 * X2          (CB)
.page L07    7 6 6 8      ; T1 = T1^2             (AA)
.page L08    7 2 2 8      ; X2 = X2^2             (BB)
.page L09    5 4 3 8      ; Z3 = X3 - Z2          (DA - CB)
.page L10    4 4 3 8      ; X3 = X3 + Z2          (DA + CB)
.page L11    7 4 4 8      ; X3 = X3^2             (x3)
.page L12    7 5 5 8      ; Z3 = Z3^2
.page L13    7 5 1 8      ; Z3 = Z3 * x1          (z3)
.page L14    3 6 2 8      ; Z2 = T1 - X2          (E = AA - BB)
.page L15    7 2 6 8      ; X2 = X2 * T1          (x2 = AA * BB)
.page L16    8 6 3 8      ; T1 = T1 + a24 * Z2    (AA + a24 E)
.page L17    7 3 6 8      ; Z2 = Z2 * T1          (z2)
; inversion z^(p-2) on Z2 with A = R4, B = R5, C = R6 (all a = a * b)
.page M44 7 4 4 8
.page M55 7 5 5 8
.page M53 7 5 3 8
.page M45 7 4 5 8
.page M33 7 3 3 8
.page M35 7 3 5 8
.page M66 7 6 6 8
.page M63 7 6 3 8
.page M65 7 6 5 8
.page M56 7 5 6 8
.page M36 7 3 6 8
.page M34 7 3 4 8
.page M23 7 2 3 8
.page C43 0 4 3 0
.page C54 0 5 4 0
.page C34 0 3 4 0
.page C53 0 5 3 0
.page C35 0 3 5 0
.page C63 0 6 3 0
.page C56 0 5 6 0
.page PF1 2 7 1 8         ; final: x in R2, y temp R7, out R1 (DH-1), tmp R8
.page PF6 2 7 6 8         ; final: out R6 (DH-2)

; n squarings in place with page pg (n >= 1)
.macro SQN pg n
  MPS \pg
  SETC \n
.endm

dh1:
  CF
  JMP x25519
dh2:
  SF
x25519:
  CSW
  MPS PI1
  LD 0.0               ; clamp the scalar in place (idempotent)
  AND #KCL0
  ST 0.0
  LD 0.7
  AND #K7F
  OR #K30
  ST 0.7
  LD 1.7               ; u: ignore bit 255
  AND #K7F
  ST 1.7
  LD #K1               ; X2 = 1, Z2 = 0
  ST 2.0
  CLR
  ST 2.1
  ST 2.2
  ST 2.3
  ST 2.4
  ST 2.5
  ST 2.6
  ST 2.7
  ST 3.0
  ST 3.1
  ST 3.2
  ST 3.3
  ST 3.4
  ST 3.5
  ST 3.6
  ST 3.7
  MPS PI2              ; X3 = u, Z3 = 1
  MOV 0.0, 1.0
  MOV 0.1, 1.1
  MOV 0.2, 1.2
  MOV 0.3, 1.3
  MOV 0.4, 1.4
  MOV 0.5, 1.5
  MOV 0.6, 1.6
  MOV 0.7, 1.7
  LD #K1
  ST 2.0
  CLR
  ST 2.1
  ST 2.2
  ST 2.3
  ST 2.4
  ST 2.5
  ST 2.6
  ST 2.7
  SETC 254
ladder:                ; bit t = cnt of the scalar selects the bank mapping
  MPS PKEY
  LDSW 0.0
  CALLP L01, fadd
  CALLP L02, fsub
  CALLP L03, fadd
  CALLP L04, fsub
  CALLP L05, fmul
  CALLP L06, fmul
  CALLP L07, fmul
  CALLP L08, fmul
  CALLP L09, fsub
  CALLP L10, fadd
  CALLP L11, fmul
  CALLP L12, fmul
  CALLP L13, fmul
  CALLP L14, fsub
  CALLP L15, fmul
  CALLP L16, fa24
  CALLP L17, fmul
  LOOP ladder
ladder_end:            ; (label only: hw/leak/dh1_rand.s's ladder ends here too)
  CSW                  ; after bit 0 the mapping is k_0 = 0 (clamped): identity

; z^(p-2), p - 2 = 2^255 - 21 (254 squarings, 11 multiplications)
  CALLP C43, fcopy     ; A = z
  CALLP M44, fmul      ; A = z^2
  CALLP C54, fcopy
  CALLP M55, fmul
  CALL fmul            ; B = z^8
  CALLP M53, fmul      ; B = z^9
  CALLP M45, fmul      ; A = z^11
  CALLP C34, fcopy
  CALLP M33, fmul      ; Z = z^22
  CALLP M35, fmul      ; Z = z^(2^5 - 1)
  CALLP C53, fcopy
  SQN M55, 4
sq1:
  CALL fmul
  LOOP sq1
  CALLP M53, fmul      ; B = z^(2^10 - 1)
  CALLP C35, fcopy
  SQN M33, 9
sq2:
  CALL fmul
  LOOP sq2
  CALLP M35, fmul      ; Z = z^(2^20 - 1)
  CALLP C63, fcopy
  SQN M66, 19
sq3:
  CALL fmul
  LOOP sq3
  CALLP M63, fmul      ; C = z^(2^40 - 1)
  SQN M66, 9
sq4:
  CALL fmul
  LOOP sq4
  CALLP M65, fmul      ; C = z^(2^50 - 1)
  CALLP C56, fcopy
  SQN M55, 49
sq5:
  CALL fmul
  LOOP sq5
  CALLP M56, fmul      ; B = z^(2^100 - 1)
  CALLP C35, fcopy
  SQN M33, 99
sq6:
  CALL fmul
  LOOP sq6
  CALLP M35, fmul      ; Z = z^(2^200 - 1)
  SQN M33, 49
sq7:
  CALL fmul
  LOOP sq7
  CALLP M36, fmul      ; Z = z^(2^250 - 1)
  SQN M33, 4
sq8:
  CALL fmul
  LOOP sq8
  CALLP M34, fmul      ; Z = z^(2^255 - 21)
  CALLP M23, fmul      ; X2 = x2 / z2

; canonical reduction mod p = 2^255 - 19, into R1 (DH-1) or R6 (DH-2)
  JF fin6
  MPS PF1
  JMP fin
fin6:
  MPS PF6
fin:
  CLR                  ; c = x >> 255; x = (x mod 2^255) + 19 c
  MACS 0.7, #K2
  SHR
  ST 3.0
  LD 0.7
  AND #K7F
  ST 0.7
  CLR
  MACS 3.0, #K19
  ADD 0.0
  STS 0.0
  ADD 0.1
  STS 0.1
  ADD 0.2
  STS 0.2
  ADD 0.3
  STS 0.3
  ADD 0.4
  STS 0.4
  ADD 0.5
  STS 0.5
  ADD 0.6
  STS 0.6
  ADD 0.7
  ST 0.7
  LD #K19              ; y = x + 19; x >= p iff y >= 2^255
  ADD 0.0
  STS 1.0
  ADD 0.1
  STS 1.1
  ADD 0.2
  STS 1.2
  ADD 0.3
  STS 1.3
  ADD 0.4
  STS 1.4
  ADD 0.5
  STS 1.5
  ADD 0.6
  STS 1.6
  ADD 0.7
  ST 1.7
  CLR
  MACS 1.7, #K2
  SHR
  ST 3.0
  CLR                  ; mask = -(x >= p)
  SUB 3.0
  ST 3.1
  LD 1.7
  AND #K7F
  ST 1.7
  LD 0.0
  XOR 1.0
  AND 3.1
  XOR 0.0
  ST 2.0
  LD 0.1
  XOR 1.1
  AND 3.1
  XOR 0.1
  ST 2.1
  LD 0.2
  XOR 1.2
  AND 3.1
  XOR 0.2
  ST 2.2
  LD 0.3
  XOR 1.3
  AND 3.1
  XOR 0.3
  ST 2.3
  LD 0.4
  XOR 1.4
  AND 3.1
  XOR 0.4
  ST 2.4
  LD 0.5
  XOR 1.5
  AND 3.1
  XOR 0.5
  ST 2.5
  LD 0.6
  XOR 1.6
  AND 3.1
  XOR 0.6
  ST 2.6
  LD 0.7
  XOR 1.7
  AND 3.1
  XOR 0.7
  ST 2.7
  JF beforenm
  HALT

; ---------------------------------------------------------------- field routines
; Field routines.  Inputs/outputs are banks named by the caller's page; values are
; < 2^256 and congruent mod p = 2^255-19.  No stack (single-level calls).  Cycles: the
; model's timing rule (hw/README.md); fixed for a given W.  Secrets: every operand.
; fadd: slot0 = slot1 + slot2 mod 2^256-38.  Clobbers slot3 word 0, acc.  CT.
fadd:
  LD 1.0
  ADD 2.0
  STS 0.0
  ADD 1.1
  ADD 2.1
  STS 0.1
  ADD 1.2
  ADD 2.2
  STS 0.2
  ADD 1.3
  ADD 2.3
  STS 0.3
  ADD 1.4
  ADD 2.4
  STS 0.4
  ADD 1.5
  ADD 2.5
  STS 0.5
  ADD 1.6
  ADD 2.6
  STS 0.6
  ADD 1.7
  ADD 2.7
  STS 0.7
  JMP fold0
; fsub: slot0 = slot1 - slot2 mod 2^256-38.  Clobbers slot3 word 0, acc.  CT.
fsub:
  LD 1.0
  SUB 2.0
  STS 0.0
  ADD 1.1
  SUB 2.1
  STS 0.1
  ADD 1.2
  SUB 2.2
  STS 0.2
  ADD 1.3
  SUB 2.3
  STS 0.3
  ADD 1.4
  SUB 2.4
  STS 0.4
  ADD 1.5
  SUB 2.5
  STS 0.5
  ADD 1.6
  SUB 2.6
  STS 0.6
  ADD 1.7
  SUB 2.7
  STS 0.7
  AND #K38             ; borrow (acc = -1) -> subtract 2^256 = 38
  ST 3.0
  LD 0.0
  SUB 3.0
  STS 0.0
  ADD 0.1
  STS 0.1
  ADD 0.2
  STS 0.2
  ADD 0.3
  STS 0.3
  ADD 0.4
  STS 0.4
  ADD 0.5
  STS 0.5
  ADD 0.6
  STS 0.6
  ADD 0.7
  STS 0.7
  AND #K38             ; a second borrow leaves word 0 >= 2^32 - 38: no third
  ST 3.0
  LD 0.0
  SUB 3.0
  ST 0.0
  RET
; fold0: slot0 += 38 * carry(acc), twice (second carry cannot propagate)
fold0:
  ST 3.0
  CLR
  MACS 3.0, #K38
  ADD 0.0
  STS 0.0
  ADD 0.1
  STS 0.1
  ADD 0.2
  STS 0.2
  ADD 0.3
  STS 0.3
  ADD 0.4
  STS 0.4
  ADD 0.5
  STS 0.5
  ADD 0.6
  STS 0.6
  ADD 0.7
  STS 0.7
  ST 3.0
  CLR
  MACS 3.0, #K38
  ADD 0.0
  ST 0.0
  RET
; fmul: slot1 = slot1 * slot2 mod 2^256-38 (slot1 may equal slot2).  slot0/slot3: the
; 512-bit product (clobbered).  CT: fixed instruction sequence, MUL time fixed by 8x8.
fmul:
  MUL 8, 8
  ADD 0.0
  MACS 3.0, #K38
  STS 1.0
  ADD 0.1
  MACS 3.1, #K38
  STS 1.1
  ADD 0.2
  MACS 3.2, #K38
  STS 1.2
  ADD 0.3
  MACS 3.3, #K38
  STS 1.3
  ADD 0.4
  MACS 3.4, #K38
  STS 1.4
  ADD 0.5
  MACS 3.5, #K38
  STS 1.5
  ADD 0.6
  MACS 3.6, #K38
  STS 1.6
  ADD 0.7
  MACS 3.7, #K38
  STS 1.7
  JMP fold1
; fa24: slot1 = slot1 + a24 * slot2 mod 2^256-38.  Clobbers slot3 word 0.  CT.
fa24:
  CLR
  ADD 1.0
  MAC 2.0, #KA24
  STS 1.0
  ADD 1.1
  MAC 2.1, #KA24
  STS 1.1
  ADD 1.2
  MAC 2.2, #KA24
  STS 1.2
  ADD 1.3
  MAC 2.3, #KA24
  STS 1.3
  ADD 1.4
  MAC 2.4, #KA24
  STS 1.4
  ADD 1.5
  MAC 2.5, #KA24
  STS 1.5
  ADD 1.6
  MAC 2.6, #KA24
  STS 1.6
  ADD 1.7
  MAC 2.7, #KA24
  STS 1.7
; fold1: slot1 += 38 * carry(acc), twice
fold1:
  ST 3.0
  CLR
  MACS 3.0, #K38
  ADD 1.0
  STS 1.0
  ADD 1.1
  STS 1.1
  ADD 1.2
  STS 1.2
  ADD 1.3
  STS 1.3
  ADD 1.4
  STS 1.4
  ADD 1.5
  STS 1.5
  ADD 1.6
  STS 1.6
  ADD 1.7
  STS 1.7
  ST 3.0
  CLR
  MACS 3.0, #K38
  ADD 1.0
  ST 1.0
  RET
; fcopy: slot1 = slot2
fcopy:
  MOV 1.0, 2.0
  MOV 1.1, 2.1
  MOV 1.2, 2.2
  MOV 1.3, 2.3
  MOV 1.4, 2.4
  MOV 1.5, 2.5
  MOV 1.6, 2.6
  MOV 1.7, 2.7
  RET
