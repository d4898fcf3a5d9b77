; SPDX-License-Identifier: MIT
; Side-channel lab only (docs/SIDE_CHANNELS.md, "Coprocessor"): the program ROM of
; hw/programs/main.s with DH-1 replaced by a randomized DH-1, to measure what Coron's
; randomized projective coordinates would buy and cost on the coprocessor. Not part of
; the shipped ROM.
;
; Inputs: R0 = secret, R1 = u (host port, as DH-1), and lambda in a tenth bank R9, for
; which the real design would need a write-only host port (the lab pokes it into the
; RAM): even and nonzero mod p, as src/curve/x25519_scalarmult.c makes it. The program
; sets R0 = (rho : 0) with rho = lambda^2 and runs the ladder on the difference point
; (lambda u : lambda) kept projective, [DS16] Algorithm 1 as in mb_x25519_randomized:
; x3 = Z1 (DA + CB)^2, z3 = X1 (DA - CB)^2, one fmul more per step.
.include ../programs/main.s
.entry DH1 dh1r

.page RX1  7 1 9 8      ; X1 = u * lambda, in place in R1
.page RX3  7 4 9 8      ; X3 = X3 * Z1
.page RI2  4 1 5 9      ; X3 = X1, Z3 = Z1
.page RC29 0 2 9 0      ; X2 = lambda (fcopy)

dh1r:
  CF
  CSW
  MPS PI1
  LD 0.0               ; clamp the scalar in place (as DH-1)
  AND #KCL0
  ST 0.0
  LD 0.7
  AND #K7F
  OR #K30
  ST 0.7
  LD 1.7               ; u: ignore bit 255
  AND #K7F
  ST 1.7
  CLR                  ; Z2 = 0
  ST 3.0
  ST 3.1
  ST 3.2
  ST 3.3
  ST 3.4
  ST 3.5
  ST 3.6
  ST 3.7
  CALLP RC29, fcopy    ; X2 = rho = lambda^2
  CALLP L08, fmul
  CALLP RX1, fmul      ; X1 = lambda u
  MPS RI2
  MOV 0.0, 1.0         ; X3 = X1
  MOV 0.1, 1.1
  MOV 0.2, 1.2
  MOV 0.3, 1.3
  MOV 0.4, 1.4
  MOV 0.5, 1.5
  MOV 0.6, 1.6
  MOV 0.7, 1.7
  MOV 2.0, 3.0         ; Z3 = Z1 = lambda
  MOV 2.1, 3.1
  MOV 2.2, 3.2
  MOV 2.3, 3.3
  MOV 2.4, 3.4
  MOV 2.5, 3.5
  MOV 2.6, 3.6
  MOV 2.7, 3.7
  SETC 254
rladder:
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
  CALLP RX3, fmul      ; x3 = Z1 (DA + CB)^2
  CALLP L12, fmul
  CALLP L13, fmul      ; z3 = X1 (DA - CB)^2 (R1 holds X1 = lambda u)
  CALLP L14, fsub
  CALLP L15, fmul
  CALLP L16, fa24
  CALLP L17, fmul
  LOOP rladder
  JMP ladder_end
