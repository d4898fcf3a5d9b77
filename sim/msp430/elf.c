// SPDX-License-Identifier: MIT
// ELF32 little-endian MSP430 images: the loader (allocated sections to their load
// addresses, which must lie in RAM or FRAM of the MSP430FR5969 map) and the code
// symbols that --profile names functions by.
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "sim.h"

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return le16(p) | (le16(p + 2) << 16); }

// The whole file, checked to be a 32-bit little-endian MSP430 ELF; NULL after a message.
static uint8_t *read_elf(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "msp430sim: cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 52) {
        fclose(f);
        fprintf(stderr, "msp430sim: %s: too short for ELF\n", path);
        return NULL;
    }
    uint8_t *b = malloc((size_t)n);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(b);
        fprintf(stderr, "msp430sim: cannot read %s\n", path);
        return NULL;
    }
    fclose(f);
    if (memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 1 || b[5] != 1) {
        fprintf(stderr, "msp430sim: %s: not a 32-bit little-endian ELF file\n", path);
        free(b);
        return NULL;
    }
    if (le16(b + 18) != 105) { // EM_MSP430
        fprintf(stderr, "msp430sim: %s: not an MSP430 ELF file (e_machine %u)\n", path, le16(b + 18));
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

int elf_load(const char *path, uint32_t *entry)
{
    long n;
    uint8_t *b = read_elf(path, &n);
    if (!b) return -1;
    int rc = -1;
    *entry = le32(b + 24);
    // Load every allocated section with contents at its load address (LMA, from the
    // PT_LOAD segment holding it); segments that hold only ELF headers are ignored.
    uint32_t phoff = le32(b + 28), phentsize = le16(b + 42), phnum = le16(b + 44);
    uint32_t shoff = le32(b + 32), shentsize = le16(b + 46), shnum = le16(b + 48);
    if ((long)phoff + (long)phnum * phentsize > n || (long)shoff + (long)shnum * shentsize > n) goto bad;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = b + shoff + i * shentsize;
        uint32_t type = le32(sh + 4), flags = le32(sh + 8), off = le32(sh + 16), size = le32(sh + 20);
        if (!(flags & 2u) || type == 8 || size == 0) continue; // !SHF_ALLOC, SHT_NOBITS
        if ((long)off + (long)size > n) goto bad;
        uint32_t lma = le32(sh + 12); // sh_addr, unless a segment says otherwise
        for (uint32_t j = 0; j < phnum; j++) {
            const uint8_t *ph = b + phoff + j * phentsize;
            uint32_t poff = le32(ph + 4), filesz = le32(ph + 16);
            if (le32(ph) == 1 && off >= poff && off + size <= poff + filesz) {
                lma = le32(ph + 12) + (off - poff);
                break;
            }
        }
        for (uint32_t k = 0; k < size; k++) {
            uint32_t a = lma + k;
            int kind = a < MEM_SIZE ? page_kind[a >> 8] : PG_NONE;
            if (kind != PG_RAM && kind != PG_FRAM) {
                fprintf(stderr, "msp430sim: %s: section byte at 0x%05x outside RAM/FRAM\n", path, a);
                goto out;
            }
            mem[a] = b[off + k];
        }
    }
    rc = 0;
    goto out;
bad:
    fprintf(stderr, "msp430sim: %s: truncated ELF file\n", path);
out:
    free(b);
    return rc;
}

int elf_symbols(const char *path, elf_sym_fn *fn)
{
    long n;
    uint8_t *b = read_elf(path, &n);
    if (!b) return -1;
    uint32_t shoff = le32(b + 32), shentsize = le16(b + 46), shnum = le16(b + 48);
    if (shentsize < 40 || (long)shoff + (long)shnum * shentsize > n) goto bad;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = b + shoff + i * shentsize;
        if (le32(sh + 4) != 2) continue; // SHT_SYMTAB
        uint32_t off = le32(sh + 16), size = le32(sh + 20), link = le32(sh + 24), ent = le32(sh + 36);
        if (link >= shnum || ent < 16 || (long)off + (long)size > n) goto bad;
        const uint8_t *st = b + shoff + link * shentsize;
        uint32_t stroff = le32(st + 16), strsize = le32(st + 20);
        if ((long)stroff + (long)strsize > n || strsize == 0 || b[stroff + strsize - 1] != 0) goto bad;
        for (uint32_t k = 0; k + ent <= size; k += ent) {
            const uint8_t *s = b + off + k;
            uint32_t name = le32(s), value = le32(s + 4), ssize = le32(s + 8), shndx = le16(s + 14);
            int type = s[12] & 0xF, bind = s[12] >> 4;
            if ((type != 0 && type != 2) || name == 0 || name >= strsize) continue; // NOTYPE, FUNC
            if (shndx == 0 || shndx >= shnum) continue; // undefined, absolute, common
            const uint8_t *sec = b + shoff + shndx * shentsize;
            uint32_t flags = le32(sec + 8);
            if ((flags & 6u) != 6u) continue; // SHF_ALLOC | SHF_EXECINSTR
            const char *nm = (const char *)b + stroff + name;
            if (nm[0] == '$' || (nm[0] == '.' && nm[1] == 'L')) continue; // mapping, local labels
            uint32_t sec_end = (le32(sec + 12) + le32(sec + 20)) & 0x1FFFFFu;
            fn(nm, value & ADDR_MASK, ssize, type == 2, bind == 1 || bind == 2, sec_end);
        }
    }
    free(b);
    return 0;
bad:
    fprintf(stderr, "msp430sim: %s: truncated ELF file\n", path);
    free(b);
    return -1;
}
