/* pn_sass_prog.c - SASS programs: built from source-page rows, basic blocks
 * and branch targets, the program file. */
#include "pn_sass_prog.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pn_yaml.h"

pn_status_t pn_sass_prog_init(pn_sass_prog_t *p, const char *path, const char *kernel,
                              double warps, pn_error_t *err)
{
    memset(p, 0, sizeof *p);
    p->path = pn_yaml_strdup(path ? path : "");
    p->kernel = pn_yaml_strdup(kernel ? kernel : "");
    p->warps = warps;
    if (!p->path || !p->kernel) {
        pn_sass_prog_destroy(p);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    return PN_OK;
}

void pn_sass_prog_destroy(pn_sass_prog_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->ops[i].text);
    free(p->ops);
    free(p->path);
    free(p->kernel);
    memset(p, 0, sizeof *p);
}

/* text with every hexadecimal literal equal to `from` replaced by `to`'s
 * (every one: the parser may have taken any of them as the target). */
static char *retarget(const char *text, uint64_t from, uint64_t to)
{
    char hex[24], rep[24];
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)from);
    snprintf(rep, sizeof rep, "0x%llx", (unsigned long long)to);
    size_t hl = strlen(hex), rl = strlen(rep), tl = strlen(text);
    char *out = malloc(tl * (rl > hl ? rl : hl) + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *s = text; *s;) {
        int hexdigit_after = (s[hl] >= '0' && s[hl] <= '9') || (s[hl] >= 'a' && s[hl] <= 'f') ||
                             (s[hl] >= 'A' && s[hl] <= 'F');
        int word_before = s > text && ((s[-1] >= '0' && s[-1] <= '9') ||
                                       (s[-1] >= 'a' && s[-1] <= 'z') ||
                                       (s[-1] >= 'A' && s[-1] <= 'Z') || s[-1] == '_');
        if (!strncasecmp(s, hex, hl) && !hexdigit_after && !word_before) {
            memcpy(w, rep, rl);
            w += rl;
            s += hl;
        } else
            *w++ = *s++;
    }
    *w = '\0';
    return out;
}

pn_status_t pn_sass_prog_add(pn_sass_prog_t *p, const char *text, uint64_t address,
                             uint64_t base, double executed, double sectors, double lines,
                             double wavefronts, long line, long col, pn_error_t *err)
{
    if (p->n >= PN_SASS_MAX_OPS)
        return pn_error_at(err, PN_ELIMIT, p->path, line, col,
                           "more than %u instructions in one kernel", PN_SASS_MAX_OPS);
    if (address < base || address - base > UINT32_MAX)
        return pn_error_at(err, PN_EINVAL, p->path, line, col,
                           "address 0x%llx is not within 4 GiB after the kernel's first "
                           "instruction 0x%llx", (unsigned long long)address,
                           (unsigned long long)base);
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        pn_sass_op_t *n = realloc(p->ops, cap * sizeof *n);
        if (!n)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        p->ops = n;
        p->cap = cap;
    }
    pn_sass_op_t *op = &p->ops[p->n];
    memset(op, 0, sizeof *op);
    PN_CHECK(pn_sass_insn_parse(&op->in, text, p->path, line, col, err));
    uint64_t abs_target = op->in.target;
    /* a call out of the kernel's code (an external function): a plain control op */
    if (op->in.has_target && !strcmp(op->in.opcode, "CALL") &&
        (abs_target < base || abs_target - base > UINT32_MAX))
        op->in.has_target = false;
    if (op->in.has_target) {
        if (abs_target < base || abs_target - base > UINT32_MAX)
            return pn_error_at(err, PN_EINVAL, p->path, line, col,
                               "branch target 0x%llx is outside the kernel (its first "
                               "instruction is at 0x%llx)", (unsigned long long)abs_target,
                               (unsigned long long)base);
        op->in.target = abs_target - base;
    }
    op->text = op->in.has_target && base ? retarget(text, abs_target, op->in.target)
                                         : pn_yaml_strdup(text);
    if (!op->text)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    op->offset = (uint32_t)(address - base);
    op->executed = executed;
    op->sectors = sectors;
    op->lines = lines;
    op->wavefronts = wavefronts;
    op->line = line;
    op->target = -1;
    if (!op->in.known)
        pn_sass_word_add(p->unknown, sizeof p->unknown, op->in.opcode);
    p->n++;
    return PN_OK;
}

void pn_sass_word_add(char *list, size_t size, const char *word)
{
    size_t ll = strlen(list), wl = strlen(word);
    for (const char *at = list; (at = strstr(at, word)) != NULL; at += wl)
        if ((at == list || at[-1] == ' ') && (at[wl] == ' ' || at[wl] == '\0'))
            return;
    if (ll + wl + 2 >= size)
        return;
    if (ll)
        list[ll++] = ' ';
    memcpy(list + ll, word, wl + 1);
}

int pn_sass_op_is_exit(const pn_sass_op_t *op)
{
    return !strcmp(op->in.opcode, "EXIT") || !strcmp(op->in.opcode, "RET");
}

int pn_sass_op_is_ret(const pn_sass_op_t *op)
{
    return !strcmp(op->in.opcode, "RET");
}

int pn_sass_op_is_local(const pn_sass_op_t *op)
{
    return pn_sass_opcode_apart(op->in.opcode) == PN_SASS_APART_LOCAL;
}

int pn_sass_op_is_texture(const pn_sass_op_t *op)
{
    return pn_sass_opcode_apart(op->in.opcode) == PN_SASS_APART_TEXTURE;
}

int pn_sass_op_is_async_copy(const pn_sass_op_t *op)
{
    return !strcmp(op->in.opcode, "LDGSTS");
}

int pn_sass_op_is_call(const pn_sass_op_t *op)
{
    return !strcmp(op->in.opcode, "CALL") && op->in.has_target && op->target >= 0;
}

int pn_sass_op_is_branch(const pn_sass_op_t *op)
{
    return !strcmp(op->in.opcode, "BRA") || !strcmp(op->in.opcode, "JMP") ||
           (!strcmp(op->in.opcode, "WARPSYNC") && op->in.has_target);
}

/* Does control leave op's straight line after it (a block ends there)? A
 * YIELD or NANOSLEEP lets the threads of a waiting warp go on apart, so the
 * instructions after it may run in more or fewer warp-level executions
 * (cuSOLVER's pivot search polls with YIELD in its loops: 66465 before one,
 * 64512 after it). */
static int ends_block(const pn_sass_op_t *op)
{
    static const char *const ops[] = { "BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL",
                                       "BSYNC", "WARPSYNC", "BPT", "YIELD", "NANOSLEEP" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(op->in.opcode, ops[i]))
            return 1;
    return 0;
}

static int32_t find_offset(const pn_sass_prog_t *p, uint64_t off)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->ops[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->ops[lo].offset == off ? (int32_t)lo : -1;
}

pn_status_t pn_sass_prog_finish(pn_sass_prog_t *p, pn_error_t *err)
{
    if (p->n == 0)
        return pn_error_at(err, PN_EINVAL, p->path, 0, 0, "kernel %s: no instructions",
                           p->kernel);
    char *leader = calloc(p->n + 1, 1);
    if (!leader)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    leader[0] = 1;
    for (size_t i = 0; i < p->n; i++) {
        pn_sass_op_t *op = &p->ops[i];
        if (i > 0 && op->offset <= p->ops[i - 1].offset) {
            free(leader);
            return pn_error_at(err, PN_EINVAL, p->path, op->line, 1,
                               "offset 0x%x is not above the instruction before it",
                               op->offset);
        }
        if (op->in.has_target && strcmp(op->in.opcode, "BMOV")) {
            op->target = find_offset(p, op->in.target);
            if (op->target < 0 && !strcmp(op->in.opcode, "CALL"))
                op->in.has_target = false;   /* past the code the page lists */
            else if (op->target < 0) {
                free(leader);
                return pn_error_at(err, PN_EINVAL, p->path, op->line, 1,
                                   "branch target 0x%llx is outside the kernel (offsets 0x0 "
                                   "to 0x%x) or not an instruction's",
                                   (unsigned long long)op->in.target, p->ops[p->n - 1].offset);
            } else
                leader[op->target] = 1;
        }
        if (ends_block(op) || (op->in.guarded && pn_sass_op_is_exit(op)))
            leader[i + 1] = 1;
    }
    int32_t b = -1;
    for (size_t i = 0; i < p->n; i++) {
        if (leader[i])
            b++;
        else if (p->ops[i].executed != p->ops[i - 1].executed) {
            const pn_sass_op_t *op = &p->ops[i];
            free(leader);
            return pn_error_at(err, PN_EINVAL, p->path, op->line, 1,
                               "%s at 0x%x executed %.0f times, the instruction before it "
                               "%.0f times, in one basic block: counts of another launch?",
                               op->in.opcode, op->offset, op->executed, p->ops[i - 1].executed);
        }
        p->ops[i].block = b;
    }
    p->n_blocks = (uint32_t)(b + 1);
    free(leader);
    return PN_OK;
}

static void num(FILE *out, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(out, " %12.0f", v);
    else
        fprintf(out, " %12.17g", v);
}

pn_status_t pn_sass_prog_write(FILE *out, const pn_sass_prog_t *p, const char *comment,
                               pn_error_t *err)
{
    if (comment)
        for (const char *s = comment; *s;) {
            size_t l = strcspn(s, "\n");
            fprintf(out, "# %.*s\n", (int)l, s);
            s += l + (s[l] == '\n');
        }
    fprintf(out, "kernel: %s\nwarps: %.0f\n", p->kernel, p->warps);
    if (p->block[0])
        fprintf(out, "block: %u %u %u\n", p->block[0], p->block[1], p->block[2]);
    fprintf(out, "#     offset     executed      sectors        lines   wavefronts      threads "
                 "| instruction\n");
    for (size_t i = 0; i < p->n; i++) {
        const pn_sass_op_t *op = &p->ops[i];
        char off[16];
        snprintf(off, sizeof off, "0x%x", op->offset);
        fprintf(out, "  %10s", off);
        num(out, op->executed);
        num(out, op->sectors);
        num(out, op->lines);
        num(out, op->wavefronts);
        num(out, op->threads);
        fprintf(out, "%s | %s\n", op->shared ? " shared" : "", op->text);
    }
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "cannot write the program: %s", strerror(errno));
    return PN_OK;
}

/* A count >= 0 at *s (advanced past it); 0 on success. */
static int field(char **s, double *out)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    char *end;
    errno = 0;
    *out = strtod(*s, &end);
    if (end == *s || errno || !isfinite(*out) || *out < 0 || (*end != ' ' && *end != '\t'))
        return -1;
    *s = end;
    return 0;
}

/* The "block: X Y Z" line's shape at s (column col of line `line`) into p->block:
 * whole numbers >= 1, at most 1024 threads in all. */
static pn_status_t block_shape(pn_sass_prog_t *p, const char *s, long line, long col,
                               pn_error_t *err)
{
    unsigned long long v[3], t = 1;
    int n = 0;
    const char *q = s;
    while (n < 3) {
        q += strspn(q, " \t");
        if (!isdigit((unsigned char)*q))
            break;
        char *end;
        errno = 0;
        v[n] = strtoull(q, &end, 10);
        if (errno || v[n] < 1 || v[n] > 1024)
            break;
        t *= v[n++];
        q = end;
    }
    q += strspn(q, " \t");
    if (n < 3 || *q || t > 1024)
        return pn_error_at(err, PN_EINVAL, p->path, line, col,
                           "block: expected three whole numbers >= 1 (x y z, at most 1024 "
                           "threads in all), got '%.30s'", s + strspn(s, " \t"));
    for (int k = 0; k < 3; k++)
        p->block[k] = (uint32_t)v[k];
    return PN_OK;
}

pn_status_t pn_sass_prog_read(pn_sass_prog_t *p, const char *path, pn_error_t *err)
{
    char *text;
    size_t len;
    memset(p, 0, sizeof *p);
    if (pn_yaml_read_file(path, &text, &len) != PN_OK)
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open the SASS program: %s",
                           pn_yaml_strerror(errno));
    pn_status_t st = pn_sass_prog_init(p, path, "", -1, err);
    long line = 0;
    int have_kernel = 0;
    for (char *s = text, *end = text + len; s < end && st == PN_OK;) {
        char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        *e = '\0';
        line++;
        if (e > s && e[-1] == '\r')
            e[-1] = '\0';
        char *q = s + strspn(s, " \t");
        char *next = e < end ? e + 1 : end;
        if (!*q || *q == '#') {
            s = next;
            continue;
        }
        if (!strncmp(q, "kernel:", 7)) {
            q += 7 + strspn(q + 7, " \t");
            free(p->kernel);
            p->kernel = pn_yaml_strdup(q);
            have_kernel = 1;
            if (!p->kernel)
                st = pn_error_set(err, PN_ENOMEM, "out of memory");
        } else if (!strncmp(q, "warps:", 6)) {
            char *w = q + 6, *wend;
            errno = 0;
            p->warps = strtod(w, &wend);
            if (wend == w || errno || !(p->warps >= 1) || p->warps > 1e15 ||
                p->warps != floor(p->warps) || wend[strspn(wend, " \t")])
                st = pn_error_at(err, PN_EINVAL, path, line, (long)(w - s) + 1,
                                 "warps: expected a whole number >= 1, got '%.30s'", w);
        } else if (!strncmp(q, "block:", 6)) {
            st = block_shape(p, q + 6, line, (long)(q - s) + 7, err);
        } else {
            char *f = q, *oend;
            errno = 0;
            unsigned long long off = strtoull(f, &oend, 16);
            double v[5] = { 0 };
            int bad = strncmp(f, "0x", 2) || oend == f + 2 || errno || off > UINT32_MAX;
            f = oend;
            for (int k = 0; k < 4 && !bad; k++)
                bad = field(&f, &v[k]) != 0;
            f += strspn(f, " \t");
            if (!bad && *f != '|' && strncmp(f, "shared", 6)) /* the optional threads column */
                bad = field(&f, &v[4]) != 0;
            f += strspn(f, " \t");
            bool shared = !bad && !strncmp(f, "shared", 6) && strchr(" \t|", f[6]);
            if (shared) /* the optional shared column */
                f += 6 + strspn(f + 6, " \t");
            if (bad || *f != '|')
                st = pn_error_at(err, PN_EINVAL, path, line, (long)(q - s) + 1,
                                 "expected 'offset executed sectors lines wavefronts [threads] "
                                 "[shared] | instruction' (offset hexadecimal 0x..., counts "
                                 ">= 0)");
            else {
                f++;
                f += strspn(f, " \t");
                st = pn_sass_prog_add(p, f, off, 0, v[0], v[1], v[2], v[3], line,
                                      (long)(f - s) + 1, err);
                pn_sass_op_t *op = st == PN_OK ? &p->ops[p->n - 1] : NULL;
                if (op) {
                    op->threads = v[4];
                    op->shared = shared;
                }
                if (op && shared && !pn_sass_insn_to_shared(&op->in))
                    st = pn_error_at(err, PN_EINVAL, path, line, (long)(f - s) + 1,
                                     "shared: only a generic LD, ST or ATOM can be marked as an "
                                     "access of shared memory, not %s", op->in.opcode);
            }
        }
        s = next;
    }
    free(text);
    if (st == PN_OK && (!have_kernel || !*p->kernel))
        st = pn_error_at(err, PN_EINVAL, path, 1, 1, "no 'kernel: NAME' line");
    if (st == PN_OK && p->warps < 1)
        st = pn_error_at(err, PN_EINVAL, path, 1, 1, "no 'warps: N' line");
    if (st == PN_OK)
        st = pn_sass_prog_finish(p, err);
    if (st != PN_OK)
        pn_sass_prog_destroy(p);
    return st;
}

int pn_sass_prog_successors(const pn_sass_prog_t *p, size_t i, size_t succ[2])
{
    const pn_sass_op_t *op = &p->ops[i];
    int ns = 0;
    bool jump = pn_sass_op_is_branch(op) || !strcmp(op->in.opcode, "CALL");
    if (jump && op->target >= 0)
        succ[ns++] = (size_t)op->target;
    bool leaves = (pn_sass_op_is_exit(op) || (jump && pn_sass_op_is_branch(op))) &&
                  !op->in.guarded;
    if (!leaves && i + 1 < p->n)
        succ[ns++] = i + 1;
    return ns;
}
