; SPDX-License-Identifier: MIT
; XSalsa20 + Poly1305 streaming (crypto_box_afternm / crypto_secretbox) on the ASIP.
; Banks: R0/R1 data (I/O), R2/R3 Salsa20 state x (then Poly1305 product / message copy),
; R4 Poly1305 h (words 0..4), R5 r (0..3) and s (4..7), R6 box key (from DH-2),
; R7 XSalsa20 subkey, R8: word 0 scratch, 1..2 nonce[16..23], 3..4 block counter,
; 5..7 scratch.
; Secrets: R5, R6, R7, x, h, keystream.  CT: straight-line code and fixed loops only.

.page PX   2 3 0 0        ; Salsa20 state
.page PHI  2 3 6 0        ; HSalsa20(key R6, nonce R0[0..3]) setup
.page PHZ  2 3 6 8        ; HSalsa20(key R6, nonce 0) setup (R8 zeroed)
.page PHO7 2 3 7 0        ; HSalsa20 output -> R7 (INIT)
.page PHO6 2 3 6 0        ; HSalsa20 output -> R6 (DH-2: box key = HSalsa20(shared, 0))
.page PIN  8 3 0 0        ; INIT tail: nonce words 4..5, counter
.page PXS  2 3 7 8        ; XSalsa20 block: x, j (key R7, nonce/counter R8)
.page PD   2 3 0 1        ; keystream and data
.page PK   2 3 5 4        ; Poly1305 key from x[0..7]; h
.page PC0  0 3 0 0        ; copy R0 -> R3
.page PC1  1 3 0 0        ; copy R1 -> R3
.page PC7  7 3 0 0        ; copy R3 -> R7
.page PA   3 4 0 0        ; Poly1305: message (R3), h
.page PM   2 4 5 8        ; Poly1305: product (R2), h, r, word 8 -> R8[0]
.page PT   2 4 5 8        ; tag: g / tag out (R2), h, s, tmp (R8)
.page PR0  0 2 7 1        ; FINALIZE / DECRYPT: R0, tag (R2), keystream (R7), R1

; HSalsa20 / Salsa20 state setup: x = (sigma0, key[0..3], sigma1, n0..n3, sigma2, key[4..7], sigma3)
.macro SETUPK kb
  MOV 0.0, #SIGMA
  MOV 0.1, \kb.0
  MOV 0.2, \kb.1
  MOV 0.3, \kb.2
  MOV 0.4, \kb.3
  MOV 0.5, #SIGMA+1
  MOV 1.2, #SIGMA+2
  MOV 1.3, \kb.4
  MOV 1.4, \kb.5
  MOV 1.5, \kb.6
  MOV 1.6, \kb.7
  MOV 1.7, #SIGMA+3
.endm

; ---------------------------------------------------------------- DH-2 tail
beforenm:              ; R6 = HSalsa20(R6, 0): crypto_box_beforenm
  MPS PHZ
  SETUPK 2
  CLR
  ST 0.6
  ST 0.7
  ST 1.0
  ST 1.1
  MPS PX
  CALL rounds
  MPS PHO6
  JMP hsout

; ---------------------------------------------------------------- INIT
init:                  ; R0[0..5] = 24-byte nonce
  CF
  MPS PHI
  SETUPK 2
  MOV 0.6, 3.0
  MOV 0.7, 3.1
  MOV 1.0, 3.2
  MOV 1.1, 3.3
  MPS PX
  CALL rounds
  MPS PHO7
hsout:                 ; HSalsa20 output z = x0 x5 x10 x15 x6 x7 x8 x9 -> slot 2
  MOV 2.0, 0.0
  MOV 2.1, 0.5
  MOV 2.2, 1.2
  MOV 2.3, 1.7
  MOV 2.4, 0.6
  MOV 2.5, 0.7
  MOV 2.6, 1.0
  MOV 2.7, 1.1
  JF hsdone
  MPS PIN              ; nonce[16..23] and block counter 0
  MOV 0.1, 2.4
  MOV 0.2, 2.5
  CLR
  ST 0.3
  ST 0.4
hsdone:
  HALT

; ---------------------------------------------------------------- keystream block
; xblock: x = Salsa20(j) + j for j = (sigma, R7, R8 nonce/counter); counter += 1.
; Main-level macro (it calls rounds).
.macro XBLOCK
  MPS PXS
  SETUPK 2
  MOV 0.6, 3.1
  MOV 0.7, 3.2
  MOV 1.0, 3.3
  MOV 1.1, 3.4
  MPS PX
  CALL rounds
  MPS PXS
  LD 0.0
  ADD #SIGMA
  ST 0.0
  LD 0.1
  ADD 2.0
  ST 0.1
  LD 0.2
  ADD 2.1
  ST 0.2
  LD 0.3
  ADD 2.2
  ST 0.3
  LD 0.4
  ADD 2.3
  ST 0.4
  LD 0.5
  ADD #SIGMA+1
  ST 0.5
  LD 0.6
  ADD 3.1
  ST 0.6
  LD 0.7
  ADD 3.2
  ST 0.7
  LD 1.0
  ADD 3.3
  ST 1.0
  LD 1.1
  ADD 3.4
  ST 1.1
  LD 1.2
  ADD #SIGMA+2
  ST 1.2
  LD 1.3
  ADD 2.4
  ST 1.3
  LD 1.4
  ADD 2.5
  ST 1.4
  LD 1.5
  ADD 2.6
  ST 1.5
  LD 1.6
  ADD 2.7
  ST 1.6
  LD 1.7
  ADD #SIGMA+3
  ST 1.7
  LD 3.3               ; 64-bit block counter
  ADD #K1
  STS 3.3
  ADD 3.4
  ST 3.4
.endm

; Poly1305 one-time key from x[0..7] (block 0's first 32 bytes); h = 0
.macro POLYKEY
  MPS PK
  LD 0.0
  AND #RCL0
  ST 2.0
  LD 0.1
  AND #RCL1
  ST 2.1
  LD 0.2
  AND #RCL1
  ST 2.2
  LD 0.3
  AND #RCL1
  ST 2.3
  MOV 2.4, 0.4
  MOV 2.5, 0.5
  MOV 2.6, 0.6
  MOV 2.7, 0.7
  CLR
  ST 3.0
  ST 3.1
  ST 3.2
  ST 3.3
  ST 3.4
.endm

; slot-0 bank ^= x[base .. base+7] (slot 2 = R0, slot 3 = R1 of PD)
.macro XORD xs ds
  LD \ds.0
  XOR \xs.0
  ST \ds.0
  LD \ds.1
  XOR \xs.1
  ST \ds.1
  LD \ds.2
  XOR \xs.2
  ST \ds.2
  LD \ds.3
  XOR \xs.3
  ST \ds.3
  LD \ds.4
  XOR \xs.4
  ST \ds.4
  LD \ds.5
  XOR \xs.5
  ST \ds.5
  LD \ds.6
  XOR \xs.6
  ST \ds.6
  LD \ds.7
  XOR \xs.7
  ST \ds.7
.endm
.macro COPY8 d s
  MOV \d.0, \s.0
  MOV \d.1, \s.1
  MOV \d.2, \s.2
  MOV \d.3, \s.3
  MOV \d.4, \s.4
  MOV \d.5, \s.5
  MOV \d.6, \s.6
  MOV \d.7, \s.7
.endm

; ---------------------------------------------------------------- FIRST
first:                 ; R0 = 32 zero bytes (placeholder), R1 = plaintext[0..31]
  XBLOCK
  POLYKEY
  MPS PD
  CLR
  ST 2.0
  ST 2.1
  ST 2.2
  ST 2.3
  ST 2.4
  ST 2.5
  ST 2.6
  ST 2.7
  XORD 1, 3
  CALLP PC1, copy3
  CALL poly2
  HALT

; ---------------------------------------------------------------- UPDATE
update:                ; R0, R1 = 64 plaintext bytes -> ciphertext
  XBLOCK
  MPS PD
  XORD 0, 2
  XORD 1, 3
  CALLP PC0, copy3
  CALL poly2
  CALLP PC1, copy3
  CALL poly2
  HALT

; ---------------------------------------------------------------- FINALIZE
finalize:              ; R0 = 16 zero bytes || tag
  CALLP PT, ptag
  MPS PR0
  CLR
  ST 0.0
  ST 0.1
  ST 0.2
  ST 0.3
  MOV 0.4, 1.0
  MOV 0.5, 1.1
  MOV 0.6, 1.2
  MOV 0.7, 1.3
  HALT

; ---------------------------------------------------------------- DECRYPT
decrypt:               ; R0 = 16 zero bytes || tag, R1 = 32-byte ciphertext (block 0)
  XBLOCK
  POLYKEY
  MPS PC7              ; keep keystream x[8..15] in R7 (subkey no longer needed)
  COPY8 0, 1
  CALLP PC1, copy3
  CALL poly2
  CALLP PT, ptag
  MPS PR0
  LD 0.4               ; R0 ^= (0 || tag): all zero iff authentic
  XOR 1.0
  ST 0.4
  LD 0.5
  XOR 1.1
  ST 0.5
  LD 0.6
  XOR 1.2
  ST 0.6
  LD 0.7
  XOR 1.3
  ST 0.7
  LD 0.0               ; mask = (R0 == 0) ? ~0 : 0
  OR 0.1
  OR 0.2
  OR 0.3
  OR 0.4
  OR 0.5
  OR 0.6
  OR 0.7
  SUB #K1
  SHR
  ST 1.0               ; R2[0] = mask
  XORD 2, 3            ; R1 ^= keystream
  LD 3.0               ; fail closed: R1 &= mask
  AND 1.0
  ST 3.0
  LD 3.1
  AND 1.0
  ST 3.1
  LD 3.2
  AND 1.0
  ST 3.2
  LD 3.3
  AND 1.0
  ST 3.3
  LD 3.4
  AND 1.0
  ST 3.4
  LD 3.5
  AND 1.0
  ST 3.5
  LD 3.6
  AND 1.0
  ST 3.6
  LD 3.7
  AND 1.0
  ST 3.7
  HALT

; ---------------------------------------------------------------- subroutines
; Subroutines: no stack (single-level), fixed cycles for a given W, secrets = all data.
; rounds: 20 Salsa20 rounds on x = R2 (x0..7), R3 (x8..15) (page PX).  Clobbers cnt, acc.
rounds:
  SETC 9
rloop:
  QR 0.0, 0.4, 1.0, 1.4
  QR 0.5, 1.1, 1.5, 0.1
  QR 1.2, 1.6, 0.2, 0.6
  QR 1.7, 0.3, 0.7, 1.3
  QR 0.0, 0.1, 0.2, 0.3
  QR 0.5, 0.6, 0.7, 0.4
  QR 1.2, 1.3, 1.0, 1.1
  QR 1.7, 1.4, 1.5, 1.6
  LOOP rloop
  RET

; copy3: R3 = slot-0 bank (page PC0 / PC1).  Clobbers acc.
copy3:
  COPY8 1, 0
  RET

; poly2: two Poly1305 blocks from R3[0..3], R3[4..7] (full blocks, pad bit 2^128):
; h (R4[0..4], h < 2^131 in and out) = (h + m) r mod 2^130-5, partially reduced.
; Clobbers R2 (product), R8[0], acc.
.macro PBLOCK o0 o1 o2 o3
  MPS PA
  LD 0.\o0
  ADD 1.0
  STS 1.0
  ADD 0.\o1
  ADD 1.1
  STS 1.1
  ADD 0.\o2
  ADD 1.2
  STS 1.2
  ADD 0.\o3
  ADD 1.3
  STS 1.3
  ADD 1.4
  ADD #K1
  ST 1.4
  MPS PM
  MUL 5, 4             ; p = h * r (< 2^256) -> R2
  LD 0.4               ; h = (p mod 2^130) + 5 (p >> 130), via T = p >> 128 & ~3:
  AND #K3              ; h = p[0..3] + (p4 & 3) 2^128 + T + T / 4
  ST 1.4
  LD 0.4
  AND #KN3
  ST 0.4
  CLR
  MAC 0.4, #K30
  SHR
  ADD 0.0
  ADD 0.4
  MAC 0.5, #K30
  STS 1.0
  ADD 0.1
  ADD 0.5
  MAC 0.6, #K30
  STS 1.1
  ADD 0.2
  ADD 0.6
  MAC 0.7, #K30
  STS 1.2
  ADD 0.3
  ADD 0.7
  STS 1.3
  ADD 1.4
  ST 1.4
.endm
poly2:
  PBLOCK 0 1 2 3
  PBLOCK 4 5 6 7
  RET

; ptag: R2[0..3] = (h mod p + s) mod 2^128 (page PT), h < 2p.  Clobbers R2[4],
; R8[5..7], acc.
ptag:
  LD #K5               ; g = h + 5; h >= p iff g >= 2^130 (h < 2p)
  ADD 1.0
  STS 0.0
  ADD 1.1
  STS 0.1
  ADD 1.2
  STS 0.2
  ADD 1.3
  STS 0.3
  ADD 1.4
  ST 0.4
  CLR
  MAC 0.4, #K30
  SHR
  ST 3.5
  CLR
  SUB 3.5
  ST 3.6               ; mask = -(h >= p)
  LD 1.0
  XOR 0.0
  AND 3.6
  XOR 1.0
  ADD 2.4
  STS 0.0
  ST 3.7
  LD 1.1
  XOR 0.1
  AND 3.6
  XOR 1.1
  ADD 3.7
  ADD 2.5
  STS 0.1
  ST 3.7
  LD 1.2
  XOR 0.2
  AND 3.6
  XOR 1.2
  ADD 3.7
  ADD 2.6
  STS 0.2
  ST 3.7
  LD 1.3
  XOR 0.3
  AND 3.6
  XOR 1.3
  ADD 3.7
  ADD 2.7
  ST 0.3
  RET
