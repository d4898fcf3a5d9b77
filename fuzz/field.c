/* SPDX-License-Identifier: MIT */
/* The field backends against a big-integer oracle (OpenSSL BN), built once per radix
 * (-DMB_RADIX=16|25|32|64, linked to that radix's library): a little register machine runs
 * a fuzzer-chosen program of field operations on arbitrary limb patterns and checks
 * every result against the oracle.
 *
 * GF(2^255-19) (src/field/fe25519.h): r16/r32 values are any 256-bit integers, so the
 * registers start from any bytes; r64 registers start tight (limbs < 2^52) or loose
 * (< 2^54) with any bits below, r25 ones below their class bounds (r25_bound), add/sub only take tight inputs (the documented rule),
 * and every output is checked against its class bound (mul, sqr, ... tight; add, sub
 * loose). Every value is compared mod p.
 * GF(p256) (src/field/fep256.h): every value is < p and compared exactly (Montgomery
 * semantics: mul = f g / 2^256 mod p, ...); frombytes takes any 32 bytes (its flag
 * must say whether s < p) and reduce_once any value < 2^256.
 *
 * Input: kind(1) (even: fe25519, odd: fep256) class(1) regs(4 x 32 bytes)
 * then 4-byte instructions: op, d, s, t (registers are the low 2 bits of d, s, t). */
#include <openssl/bn.h>

#include "field/fe25519.h"
#include "field/fep256.h"
#include "fuzz.h"

#define NREG 4

static BN_CTX *bnctx;
static BIGNUM *P25519, *P256, *RINV, *R256, *PM2, *SQRT_E;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    bnctx = BN_CTX_new();
    P25519 = BN_new();
    P256 = BN_new();
    RINV = BN_new();
    R256 = BN_new();
    PM2 = BN_new();
    SQRT_E = BN_new();
    /* 2^255 - 19; 2^256 - 2^224 + 2^192 + 2^96 - 1 */
    BN_hex2bn(&P25519, "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed");
    BN_hex2bn(&P256, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
    BN_set_bit(R256, 256);
    BN_mod(R256, R256, P256, bnctx);                 /* R mod p */
    BN_mod_inverse(RINV, R256, P256, bnctx);         /* R^-1 mod p */
    BN_sub(PM2, P256, BN_value_one());
    BN_sub(PM2, PM2, BN_value_one());                /* p - 2 */
    BN_add(SQRT_E, P256, BN_value_one());
    BN_rshift(SQRT_E, SQRT_E, 2);                    /* (p + 1) / 4 */
    return 0;
}

static void bn_le(BIGNUM *r, const void *p, size_t len)
{
    BN_lebin2bn(p, (int)len, r);
}

/* ---- GF(2^255-19) ---- */

enum { TIGHT, LOOSE };

/* r64 and r25 bound their limbs in two classes (add/sub need tight inputs). */
#define TWO_CLASSES (MB_RADIX == 64 || MB_FE25519_R25)

#if MB_FE25519_R25
/* r25 (src/field/fe25519_r25.c): limb i starts at bit ceil(25.5 i). Class bounds:
 * tight: even limbs < 2^26, odd < 2^25 + 2^16; loose: even < 3 * 2^26, odd < 3 * 2^25
 * + 2^16. */
static unsigned r25_offset(int i) { return (unsigned)(51 * i + 1) / 2; }
static uint32_t r25_bound(int i, int cls)
{
    uint32_t b = (uint32_t)1 << (i % 2 ? 25 : 26);
    return (cls == TIGHT ? b : 3 * b) + (i % 2 ? ((uint32_t)1 << 16) : 0);
}
#endif

/* The integer an fe25519 holds. */
static void fe_value(BIGNUM *r, const fe25519 *f)
{
#if MB_FE25519_R25
    int i;
    BIGNUM *t = BN_new();
    BN_zero(r);
    for (i = 0; i < 10; i++) {
        BN_set_word(t, f->v[i]);
        BN_lshift(t, t, (int)r25_offset(i));
        BN_add(r, r, t);
    }
    BN_free(t);
#elif MB_RADIX == 64
    int i;
    BN_zero(r);
    for (i = 4; i >= 0; i--) {
        BN_lshift(r, r, 51);
        BN_add_word(r, f->v[i]);
    }
#else
    bn_le(r, f->v, sizeof f->v);
#endif
}

/* r64: every limb below its class bound (2^52 tight, 2^54 loose); r25: r25_bound. */
static void fe_bound(const fe25519 *f, int cls, const char *op)
{
#if MB_FE25519_R25
    int i;
    for (i = 0; i < 10; i++)
        FZ_CHECK(f->v[i] < r25_bound(i, cls), "%s: limb %d = %lx out of its bound", op, i,
                 (unsigned long)f->v[i]);
#elif MB_RADIX == 64
    int i;
    for (i = 0; i < 5; i++)
        FZ_CHECK(f->v[i] >> (cls == TIGHT ? 52 : 54) == 0, "%s: limb %d = %llx out of its bound",
                 op, i, (unsigned long long)f->v[i]);
#else
    (void)f;
    (void)cls;
    (void)op;
#endif
}

static void fe_check(const fe25519 *f, const BIGNUM *want, const char *op)
{
    BIGNUM *v = BN_new();
    fe_value(v, f);
    BN_nnmod(v, v, P25519, bnctx);
    if (BN_cmp(v, want) != 0) {
        char *a = BN_bn2hex(v), *b = BN_bn2hex(want);
        fprintf(stderr, "  got  %s\n  want %s\n", a, b);
        FZ_FAIL("fe25519 r%d %s: wrong value mod p", MB_RADIX, op);
    }
    BN_free(v);
}

static void run_fe25519(fz_in *in)
{
    fe25519 R[NREG];
    int cls[NREG];
    BIGNUM *O[NREG], *t = BN_new();
    uint32_t init = fz_u8(in);
    int i;
    for (i = 0; i < NREG; i++) {
        uint8_t raw[sizeof(fe25519)];
        fz_take(in, raw, sizeof raw);
        memcpy(&R[i], raw, sizeof raw);
        cls[i] = (init >> i) & 1 ? LOOSE : TIGHT;
#if MB_FE25519_R25
        {
            int j;
            for (j = 0; j < 10; j++) R[i].v[j] %= r25_bound(j, cls[i]);
        }
#elif MB_RADIX == 64
        {
            int j;
            for (j = 0; j < 5; j++) R[i].v[j] &= ((uint64_t)1 << (cls[i] == TIGHT ? 52 : 54)) - 1;
        }
#endif
        O[i] = BN_new();
        fe_value(O[i], &R[i]);
        BN_nnmod(O[i], O[i], P25519, bnctx);
    }
    while (in->n >= 4) {
        uint32_t op = fz_u8(in) % 12, d = fz_u8(in), s = fz_u8(in), u = fz_u8(in);
        uint32_t dr = d & 3, sr = s & 3, ur = u & 3;
        const char *name = "";
        uint8_t bytes[32], want[32];
        switch (op) {
        case 0:
        case 1:
            if (TWO_CLASSES && (cls[sr] != TIGHT || cls[ur] != TIGHT)) continue;
            if (op == 0) {
                mb_fe25519_add(&R[dr], &R[sr], &R[ur]);
                BN_mod_add(O[dr], O[sr], O[ur], P25519, bnctx);
                name = "add";
            } else {
                mb_fe25519_sub(&R[dr], &R[sr], &R[ur]);
                BN_mod_sub(O[dr], O[sr], O[ur], P25519, bnctx);
                name = "sub";
            }
            cls[dr] = LOOSE;
            break;
        case 2:
            mb_fe25519_mul(&R[dr], &R[sr], &R[ur]);
            BN_mod_mul(O[dr], O[sr], O[ur], P25519, bnctx);
            cls[dr] = TIGHT;
            name = "mul";
            break;
        case 3:
            mb_fe25519_sqr(&R[dr], &R[sr]);
            BN_mod_sqr(O[dr], O[sr], P25519, bnctx);
            cls[dr] = TIGHT;
            name = "sqr";
            break;
        case 4:
            mb_fe25519_mul121666(&R[dr], &R[sr]);
            BN_set_word(t, 121666);
            BN_mod_mul(O[dr], O[sr], t, P25519, bnctx);
            cls[dr] = TIGHT;
            name = "mul121666";
            break;
        case 5: {
            uint32_t bit = (d >> 2) & 1;
            int c;
            if (dr == sr) continue;   /* the documented swap is of two elements */
            mb_fe25519_cswap(&R[dr], &R[sr], bit);
            if (bit) {
                BN_swap(O[dr], O[sr]);
                c = cls[dr];
                cls[dr] = cls[sr];
                cls[sr] = c;
            }
            fe_check(&R[sr], O[sr], "cswap");
            fe_bound(&R[sr], cls[sr], "cswap");
            name = "cswap";
            break;
        }
        case 6:
            mb_fe25519_invert(&R[dr], &R[sr]);
            if (BN_is_zero(O[sr])) BN_zero(O[dr]);
            else BN_mod_inverse(O[dr], O[sr], P25519, bnctx);
            cls[dr] = TIGHT;
            name = "invert";
            break;
        case 7:
            fz_take(in, bytes, 32);
            mb_fe25519_frombytes(&R[dr], bytes);
            bytes[31] &= 0x7f;   /* bit 255 ignored */
            bn_le(O[dr], bytes, 32);
            BN_nnmod(O[dr], O[dr], P25519, bnctx);
            cls[dr] = TIGHT;
            name = "frombytes";
            break;
        case 8:
            mb_fe25519_tobytes(bytes, &R[sr]);
            memset(want, 0, 32);
            BN_bn2lebinpad(O[sr], want, 32);
            FZ_CHECK(memcmp(bytes, want, 32) == 0, "fe25519 r%d tobytes: not canonical", MB_RADIX);
            continue;
        case 9:
            FZ_CHECK(mb_fe25519_iszero(&R[sr]) == (uint32_t)BN_is_zero(O[sr]),
                     "fe25519 r%d iszero", MB_RADIX);
            continue;
        case 10:
            mb_fe25519_set(&R[dr], (uint16_t)(s | (u << 8)));
            BN_set_word(O[dr], s | (u << 8));
            cls[dr] = TIGHT;
            name = "set";
            break;
        default:
            mb_fe25519_copy(&R[dr], &R[sr]);
            BN_copy(O[dr], O[sr]);
            cls[dr] = cls[sr];
            name = "copy";
            break;
        }
        fe_check(&R[dr], O[dr], name);
        fe_bound(&R[dr], cls[dr], name);
    }
    for (i = 0; i < NREG; i++) BN_free(O[i]);
    BN_free(t);
}

/* ---- GF(p256) ---- */

static void fp_check(const fep256 *f, const BIGNUM *want, const char *op)
{
    BIGNUM *v = BN_new();
    bn_le(v, f->v, sizeof f->v);
    if (BN_cmp(v, want) != 0) {
        char *a = BN_bn2hex(v), *b = BN_bn2hex(want);
        fprintf(stderr, "  got  %s\n  want %s\n", a, b);
        FZ_FAIL("fep256 r%d %s: wrong value (or not < p)", MB_RADIX, op);
    }
    BN_free(v);
}

/* r = a / R mod p (the plain value of Montgomery-form a) and the inverse map. */
static void from_mont(BIGNUM *r, const BIGNUM *a) { BN_mod_mul(r, a, RINV, P256, bnctx); }
static void to_mont(BIGNUM *r, const BIGNUM *a) { BN_mod_mul(r, a, R256, P256, bnctx); }

static void run_fep256(fz_in *in)
{
    fep256 R[NREG], tmp;
    BIGNUM *O[NREG], *t = BN_new(), *t2 = BN_new();
    uint8_t bytes[32], want[32];
    int i;
    (void)fz_u8(in);
    for (i = 0; i < NREG; i++) {
        uint32_t lt;
        fz_take(in, bytes, 32);
        O[i] = BN_new();
        BN_bin2bn(bytes, 32, O[i]);
        lt = BN_cmp(O[i], P256) < 0;
        FZ_CHECK(mb_fep256_frombytes(&tmp, bytes) == lt, "fep256 r%d frombytes flag", MB_RADIX);
        fp_check(&tmp, O[i], "frombytes");
        mb_fep256_reduce_once(&R[i], &tmp);   /* any value < 2^256 */
        BN_nnmod(O[i], O[i], P256, bnctx);
        fp_check(&R[i], O[i], "reduce_once");
    }
    while (in->n >= 4) {
        uint32_t op = fz_u8(in) % 18, d = fz_u8(in), s = fz_u8(in), u = fz_u8(in);
        uint32_t dr = d & 3, sr = s & 3, ur = u & 3, r;
        const char *name = "";
        switch (op) {
        case 0:
            mb_fep256_add(&R[dr], &R[sr], &R[ur]);
            BN_mod_add(O[dr], O[sr], O[ur], P256, bnctx);
            name = "add";
            break;
        case 1:
            mb_fep256_sub(&R[dr], &R[sr], &R[ur]);
            BN_mod_sub(O[dr], O[sr], O[ur], P256, bnctx);
            name = "sub";
            break;
        case 2:
            mb_fep256_mul(&R[dr], &R[sr], &R[ur]);
            BN_mod_mul(t, O[sr], O[ur], P256, bnctx);
            from_mont(O[dr], t);
            name = "mul";
            break;
        case 3:
            mb_fep256_sqr(&R[dr], &R[sr]);
            BN_mod_sqr(t, O[sr], P256, bnctx);
            from_mont(O[dr], t);
            name = "sqr";
            break;
        case 4: {
            int k = 1 + (int)(d >> 2) % 16, j;
            mb_fep256_sqr_n(&R[dr], &R[sr], k);
            BN_copy(t, O[sr]);
            for (j = 0; j < k; j++) {
                BN_mod_sqr(t, t, P256, bnctx);
                from_mont(t, t);
            }
            BN_copy(O[dr], t);
            name = "sqr_n";
            break;
        }
        case 5:
            mb_fep256_neg(&R[dr], &R[sr]);
            BN_mod_sub(O[dr], P256, O[sr], P256, bnctx);
            name = "neg";
            break;
        case 6:
            mb_fep256_tomont(&R[dr], &R[sr]);
            to_mont(O[dr], O[sr]);
            name = "tomont";
            break;
        case 7:
            mb_fep256_frommont(&R[dr], &R[sr]);
            from_mont(O[dr], O[sr]);
            name = "frommont";
            break;
        case 8:   /* Montgomery domain: (a R)^-1 -> a^-1 R */
            mb_fep256_invert(&R[dr], &R[sr]);
            from_mont(t, O[sr]);
            if (BN_is_zero(t)) BN_zero(O[dr]);
            else {
                BN_mod_exp(t, t, PM2, P256, bnctx);
                to_mont(O[dr], t);
            }
            name = "invert";
            break;
        case 9: {   /* Montgomery domain: h = a^((p+1)/4) R; flag: h^2 == a */
            uint32_t sq;
            r = mb_fep256_sqrt(&R[dr], &R[sr]);
            from_mont(t, O[sr]);
            BN_mod_exp(t2, t, SQRT_E, P256, bnctx);
            BN_mod_sqr(O[dr], t2, P256, bnctx);
            sq = BN_cmp(O[dr], t) == 0;
            FZ_CHECK(r == sq, "fep256 r%d sqrt flag %u, want %u", MB_RADIX, r, sq);
            to_mont(O[dr], t2);
            name = "sqrt";
            break;
        }
        case 10:
            r = mb_fep256_equal(&R[sr], &R[ur]);
            FZ_CHECK(r == (BN_cmp(O[sr], O[ur]) == 0), "fep256 r%d equal", MB_RADIX);
            r = mb_fep256_iszero(&R[sr]);
            FZ_CHECK(r == (uint32_t)BN_is_zero(O[sr]), "fep256 r%d iszero", MB_RADIX);
            continue;
        case 11:
            from_mont(t, O[sr]);
            FZ_CHECK(mb_fep256_isodd(&R[sr]) == (uint32_t)BN_is_odd(t), "fep256 r%d isodd",
                     MB_RADIX);
            continue;
        case 12:
            r = (d >> 2) & 1;
            mb_fep256_cmov(&R[dr], &R[sr], r);
            if (r) BN_copy(O[dr], O[sr]);
            name = "cmov";
            break;
        case 13:
            r = (d >> 2) & 1;
            if (dr == sr) continue;
            mb_fep256_cswap(&R[dr], &R[sr], r);
            if (r) BN_swap(O[dr], O[sr]);
            fp_check(&R[sr], O[sr], "cswap");
            name = "cswap";
            break;
        case 14: {   /* raw bytes in, any value < 2^256 through reduce_once */
            uint32_t lt;
            fz_take(in, bytes, 32);
            BN_bin2bn(bytes, 32, t);
            lt = BN_cmp(t, P256) < 0;
            FZ_CHECK(mb_fep256_frombytes(&tmp, bytes) == lt, "fep256 r%d frombytes flag",
                     MB_RADIX);
            fp_check(&tmp, t, "frombytes");
            mb_fep256_reduce_once(&R[dr], &tmp);
            BN_nnmod(O[dr], t, P256, bnctx);
            name = "reduce_once";
            break;
        }
        case 16:
            mb_fep256_one(&R[dr]);
            BN_copy(O[dr], R256);   /* 1 in Montgomery form: R mod p */
            name = "one";
            break;
        case 17: {   /* the scalar range check: 1 <= k < n */
            static const char *n_hex =
                "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
            BIGNUM *nn = NULL;
            fz_take(in, bytes, 32);
            BN_hex2bn(&nn, n_hex);
            BN_bin2bn(bytes, 32, t);
            r = !BN_is_zero(t) && BN_cmp(t, nn) < 0;
            BN_free(nn);
            FZ_CHECK(mb_p256_scalar_ok(bytes) == r, "p256 r%d scalar_ok", MB_RADIX);
            continue;
        }
        default:
            mb_fep256_tobytes(bytes, &R[sr]);
            BN_bn2binpad(O[sr], want, 32);
            FZ_CHECK(memcmp(bytes, want, 32) == 0, "fep256 r%d tobytes", MB_RADIX);
            mb_fep256_copy(&R[dr], &R[sr]);
            BN_copy(O[dr], O[sr]);
            name = "copy";
            break;
        }
        fp_check(&R[dr], O[dr], name);
    }
    for (i = 0; i < NREG; i++) BN_free(O[i]);
    BN_free(t);
    BN_free(t2);
}

FZ_ENTRY(test_one)

static int test_one(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    if (fz_u8(&in) & 1) run_fep256(&in);
    else run_fe25519(&in);
    return 0;
}
