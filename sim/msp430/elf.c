// SPDX-License-Identifier: MIT
// ELF32 little-endian MSP430 images: the loader (allocated sections to their load
// addresses, which must lie in RAM or FRAM of the MSP430FR5969 map) and the code
// symbols that --profile names functions by. The file is untrusted: elf_open checks
// every header field, table and section range against the file size before any of
// it is read, so a malformed file ends with one line on stderr and ST_LOAD/ST_MAP.
#define _POSIX_C_SOURCE 200809L // fstat, fileno
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elf.h"
#include "sim.h"

#define MAX_FILE (64ull << 20) // far above any MSP430 image, even with debug info

enum { EH_SIZE = 52, PH_SIZE = 32, SH_SIZE = 40, SYM_SIZE = 16 };
enum { SHT_NULL = 0, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_NOBITS = 8 };
enum { SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4 };
enum { PT_LOAD = 1, ET_EXEC = 2, EM_MSP430 = 105 };

typedef struct {
    const char *path;
    uint8_t *b;
    uint64_t n; // file size: every range below is checked against it
    uint32_t phoff, phent, phnum, shoff, shent, shnum, shstrndx;
} elf_t;

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return le16(p) | (le16(p + 2) << 16); }

static int fail(const elf_t *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(const elf_t *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "msp430sim: %s: ", e->path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

static int in_file(const elf_t *e, uint64_t off, uint64_t size) { return off <= e->n && size <= e->n - off; }
static const uint8_t *sh(const elf_t *e, uint32_t i) { return e->b + e->shoff + (uint64_t)i * e->shent; }
static const uint8_t *ph(const elf_t *e, uint32_t i) { return e->b + e->phoff + (uint64_t)i * e->phent; }

// Name of section i from .shstrtab, or "?" (the table was range-checked by elf_open).
static const char *sec_name(const elf_t *e, uint32_t i)
{
    if (e->shstrndx == 0 || e->shstrndx >= e->shnum) return "?";
    const uint8_t *ss = sh(e, e->shstrndx);
    uint32_t off = le32(ss + 16), size = le32(ss + 20), name = le32(sh(e, i));
    if (le32(ss + 4) != SHT_STRTAB || name >= size || !memchr(e->b + off + name, 0, size - name)) return "?";
    return (const char *)e->b + off + name;
}

static void elf_close(elf_t *e)
{
    free(e->b);
    e->b = NULL;
}

// Reads and checks the whole file: 0, or an exit status after the message.
static int elf_open(const char *path, elf_t *e)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    FILE *f = fopen(path, "rb");
    if (!f) return fail(e, ST_LOAD, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        int dir = S_ISDIR(st.st_mode);
        fclose(f);
        return fail(e, ST_LOAD, dir ? "is a directory" : "not a regular file");
    }
    e->n = (uint64_t)st.st_size;
    if (e->n < EH_SIZE || e->n > MAX_FILE) {
        fclose(f);
        return fail(e, ST_LOAD, "%llu bytes: %s", (unsigned long long)e->n,
                    e->n < EH_SIZE ? "too short for an ELF header" : "too large for an MSP430 image");
    }
    e->b = malloc((size_t)e->n);
    if (!e->b || fread(e->b, 1, (size_t)e->n, f) != (size_t)e->n) {
        fclose(f);
        elf_close(e);
        return fail(e, ST_LOAD, "cannot read the file");
    }
    fclose(f);
    const uint8_t *b = e->b;
    int rc = 0;
    if (memcmp(b, "\x7f" "ELF", 4) != 0) rc = fail(e, ST_LOAD, "not an ELF file");
    else if (b[4] != 1 || b[5] != 1) rc = fail(e, ST_LOAD, "not a 32-bit little-endian ELF file");
    else if (b[6] != 1 || le32(b + 20) != 1) rc = fail(e, ST_LOAD, "unknown ELF version");
    else if (le16(b + 16) != ET_EXEC) rc = fail(e, ST_LOAD, "not an executable (e_type %u)", le16(b + 16));
    else if (le16(b + 18) != EM_MSP430) rc = fail(e, ST_LOAD, "not an MSP430 ELF file (e_machine %u)", le16(b + 18));
    else if (le16(b + 40) < EH_SIZE) rc = fail(e, ST_LOAD, "e_ehsize %u < %u", le16(b + 40), EH_SIZE);
    if (rc) goto bad;
    e->phoff = le32(b + 28), e->phent = le16(b + 42), e->phnum = le16(b + 44);
    e->shoff = le32(b + 32), e->shent = le16(b + 46), e->shnum = le16(b + 48), e->shstrndx = le16(b + 50);
    if (e->phnum && e->phent < PH_SIZE) rc = fail(e, ST_LOAD, "e_phentsize %u < %u", e->phent, PH_SIZE);
    else if (e->phnum && !in_file(e, e->phoff, (uint64_t)e->phnum * e->phent))
        rc = fail(e, ST_LOAD, "program headers (%u x %u bytes at 0x%x) beyond the end of the file (%llu bytes)",
                  e->phnum, e->phent, e->phoff, (unsigned long long)e->n);
    else if (e->shnum == 0 && e->shoff != 0) rc = fail(e, ST_LOAD, "extended section numbering is not supported");
    else if (e->shnum && e->shent < SH_SIZE) rc = fail(e, ST_LOAD, "e_shentsize %u < %u", e->shent, SH_SIZE);
    else if (e->shnum && !in_file(e, e->shoff, (uint64_t)e->shnum * e->shent))
        rc = fail(e, ST_LOAD, "section headers (%u x %u bytes at 0x%x) beyond the end of the file (%llu bytes)",
                  e->shnum, e->shent, e->shoff, (unsigned long long)e->n);
    if (rc) goto bad;
    for (uint32_t i = 0; i < e->phnum && !rc; i++) {
        const uint8_t *p = ph(e, i);
        uint32_t off = le32(p + 4), filesz = le32(p + 16), memsz = le32(p + 20);
        if (le32(p) != PT_LOAD) continue;
        if (!in_file(e, off, filesz))
            rc = fail(e, ST_LOAD, "segment %u: file bytes 0x%x..+0x%x beyond the end of the file (%llu bytes)", i,
                      off, filesz, (unsigned long long)e->n);
        else if (filesz > memsz) rc = fail(e, ST_LOAD, "segment %u: p_filesz 0x%x > p_memsz 0x%x", i, filesz, memsz);
    }
    for (uint32_t i = 1; i < e->shnum && !rc; i++) {
        const uint8_t *s = sh(e, i);
        uint32_t type = le32(s + 4), off = le32(s + 16), size = le32(s + 20);
        if (type == SHT_NULL || type == SHT_NOBITS) continue;
        if (!in_file(e, off, size))
            rc = fail(e, ST_LOAD, "section %u: contents 0x%x..+0x%x beyond the end of the file (%llu bytes)", i, off,
                      size, (unsigned long long)e->n);
        else if (type == SHT_SYMTAB && (le32(s + 36) < SYM_SIZE || le32(s + 24) >= e->shnum ||
                                        le32(sh(e, le32(s + 24)) + 4) != SHT_STRTAB))
            rc = fail(e, ST_LOAD, "section %u: malformed symbol table header", i);
        else if (type == SHT_STRTAB && size != 0 && e->b[off + size - 1] != 0)
            rc = fail(e, ST_LOAD, "section %u: string table not NUL-terminated", i);
    }
    if (!rc) return 0;
bad:
    elf_close(e);
    return rc;
}

// First byte of [a, a + size) that is not RAM or FRAM, or MEM_SIZE if all are.
static uint64_t first_unmapped(uint64_t a, uint64_t size)
{
    for (uint64_t x = a; x < a + size; x = (x | 0xFFu) + 1) {
        if (x >= MEM_SIZE) return x;
        int k = page_kind[x >> 8];
        if (k != PG_RAM && k != PG_FRAM) return x;
    }
    return MEM_SIZE;
}

// The load address of a section: its file range inside a PT_LOAD segment maps to the
// segment's p_paddr; otherwise sh_addr.
static uint32_t load_address(const elf_t *e, uint32_t off, uint32_t size, uint32_t addr)
{
    for (uint32_t j = 0; j < e->phnum; j++) {
        const uint8_t *p = ph(e, j);
        uint64_t poff = le32(p + 4), filesz = le32(p + 16);
        if (le32(p) == PT_LOAD && off >= poff && (uint64_t)off + size <= poff + filesz)
            return le32(p + 12) + (off - (uint32_t)poff);
    }
    return addr;
}

typedef void sym_visit(const elf_t *e, const uint8_t *sym, const char *name, void *ctx);

// Calls fn for every named symbol of every symbol table (ranges checked by elf_open).
static void each_symbol(const elf_t *e, sym_visit *fn, void *ctx)
{
    for (uint32_t i = 1; i < e->shnum; i++) {
        const uint8_t *s = sh(e, i);
        if (le32(s + 4) != SHT_SYMTAB) continue;
        uint32_t off = le32(s + 16), size = le32(s + 20), ent = le32(s + 36);
        const uint8_t *st = sh(e, le32(s + 24));
        uint32_t stroff = le32(st + 16), strsize = le32(st + 20); // NUL-terminated
        for (uint64_t k = 0; k + ent <= size; k += ent) {
            const uint8_t *sym = e->b + off + k;
            uint32_t name = le32(sym);
            if (name != 0 && name < strsize) fn(e, sym, (const char *)e->b + stroff + name, ctx);
        }
    }
}

static void find_stack_low(const elf_t *e, const uint8_t *sym, const char *name, void *ctx)
{
    (void)e;
    if (!strcmp(name, "__stack_low")) *(uint32_t *)ctx = le32(sym + 4);
}

int elf_load(const char *path, elf_info_t *info)
{
    elf_t e;
    int rc = elf_open(path, &e);
    if (rc) return rc;
    info->entry = le32(e.b + 24);
    info->stack_floor = 0;
    info->n_code = 0;
    uint32_t loaded = 0, ram_end = 0;
    for (uint32_t i = 1; i < e.shnum && !rc; i++) {
        const uint8_t *s = sh(&e, i);
        uint32_t type = le32(s + 4), flags = le32(s + 8), addr = le32(s + 12), off = le32(s + 16),
                 size = le32(s + 20);
        if (!(flags & SHF_ALLOC) || type == SHT_NULL || size == 0) continue;
        // Its run-time address (VMA) and, with contents, its load address (LMA), where
        // the bytes go (for .data an FRAM image that crt0 copies to RAM).
        uint32_t lma = type == SHT_NOBITS ? addr : load_address(&e, off, size, addr);
        uint64_t bad = first_unmapped(addr, size);
        if (bad == MEM_SIZE) bad = first_unmapped(lma, size);
        if (bad != MEM_SIZE) {
            rc = fail(&e, ST_MAP, "section %s (0x%x bytes at 0x%05x, loaded at 0x%05x) outside RAM/FRAM at 0x%05llx",
                      sec_name(&e, i), size, addr, lma, (unsigned long long)bad);
            break;
        }
        if ((flags & SHF_WRITE) && page_kind[addr >> 8] == PG_RAM && addr + size > ram_end) ram_end = addr + size;
        if (type == SHT_NOBITS) continue;
        if (flags & SHF_EXECINSTR) { // counted past the limit too: --protect-code refuses it
            if (info->n_code < ELF_MAX_CODE) {
                info->code_lo[info->n_code] = addr;
                info->code_hi[info->n_code] = addr + size;
            }
            info->n_code++;
        }
        memcpy(mem + lma, e.b + off, size);
        loaded++;
    }
    if (!rc && !loaded) rc = fail(&e, ST_LOAD, "no allocated section with contents: nothing to run");
    if (!rc) {
        uint32_t low = 0;
        each_symbol(&e, find_stack_low, &low);
        info->stack_floor = low ? low & ADDR_MASK : ram_end;
    }
    elf_close(&e);
    return rc;
}

typedef struct {
    elf_sym_fn *fn;
} code_ctx_t;

static void visit_code(const elf_t *e, const uint8_t *s, const char *nm, void *ctx)
{
    uint32_t value = le32(s + 4), ssize = le32(s + 8), shndx = le16(s + 14);
    int type = s[12] & 0xF, bind = s[12] >> 4;
    if (type != 0 && type != 2) return;           // NOTYPE, FUNC
    if (shndx == 0 || shndx >= e->shnum) return;  // undefined, absolute, common
    const uint8_t *sec = sh(e, shndx);
    if ((le32(sec + 8) & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR)) return;
    if (nm[0] == '$' || (nm[0] == '.' && nm[1] == 'L')) return; // mapping, local labels
    uint32_t sec_end = (le32(sec + 12) + le32(sec + 20)) & 0x1FFFFFu;
    ((code_ctx_t *)ctx)->fn(nm, value & ADDR_MASK, ssize, type == 2, bind == 1 || bind == 2, sec_end);
}

int elf_symbols(const char *path, elf_sym_fn *fn)
{
    elf_t e;
    int rc = elf_open(path, &e);
    if (rc) return rc;
    code_ctx_t ctx = { fn };
    each_symbol(&e, visit_code, &ctx);
    elf_close(&e);
    return 0;
}
