; SPDX-License-Identifier: MIT
; Constant ROM (32 words, index = order) and page table (slot 0..3 -> RAM bank).
.const SIGMA  0x61707865, 0x3320646e, 0x79622d32, 0x6b206574   ; "expand 32-byte k"
.const K1     1
.const K2     2            ; x * 2 >> 32 = top bit of x
.const K3     3
.const K5     5
.const K19    19
.const K38    38           ; 2^256 = 38 mod p
.const KA24   121665       ; (486662 - 2) / 4, RFC 7748
.const K30    0x40000000   ; x * 2^30 >> 32 = x >> 2
.const KN3    0xfffffffc
.const K7F    0x7fffffff
.const KCL0   0xfffffff8   ; X25519 scalar clamp, word 0
.const RCL0   0x0fffffff   ; Poly1305 r clamp, word 0
.const RCL1   0x0ffffffc   ; Poly1305 r clamp, words 1..3
