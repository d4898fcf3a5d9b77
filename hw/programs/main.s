; SPDX-License-Identifier: MIT
; Program ROM of the motebox crypto_box ASIP: X25519 + XSalsa20/Poly1305 streaming.
.include consts.s
.include macros.s
.entry DH1 dh1
.entry DH2 dh2
.entry INIT init
.entry FIRST first
.entry UPDATE update
.entry FINALIZE finalize
.entry DECRYPT decrypt
.include x25519.s
.include stream.s
