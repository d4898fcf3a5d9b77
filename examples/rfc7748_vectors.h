/* SPDX-License-Identifier: MIT */
/* RFC 7748 section 5.2 X25519 test vectors (scalar, u, output), shared by the examples:
 * the two single vectors and the first step of the iterated test (k = u = 9). */
#ifndef MB_EXAMPLE_RFC7748_VECTORS_H
#define MB_EXAMPLE_RFC7748_VECTORS_H

static const char *const rfc7748_vectors[][3] = {
    {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
    {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
    {"0900000000000000000000000000000000000000000000000000000000000000",
     "0900000000000000000000000000000000000000000000000000000000000000",
     "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"},
};
#define RFC7748_NVECTORS (sizeof rfc7748_vectors / sizeof rfc7748_vectors[0])

/* Parse 2*len hex digits into out; 0 on success, -1 on a bad digit or length. */
static int rfc7748_unhex(unsigned char *out, unsigned long len, const char *hex)
{
    unsigned long i;
    for (i = 0; i < 2 * len; i++) {
        char c = hex[i];
        int v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        if (i % 2 == 0)
            out[i / 2] = (unsigned char)(v << 4);
        else
            out[i / 2] |= (unsigned char)v;
    }
    return hex[2 * len] == '\0' ? 0 : -1;
}

#endif
