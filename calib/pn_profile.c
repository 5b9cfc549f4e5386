/* pn_profile.c - rewrite a device profile's text with a calibration section. */
#include "pn_profile.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Length of the top-level key on a line starting at s (an identifier at
 * column 1 followed by ':'), or 0. */
static size_t top_key(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == '_' || s[i] == '-' || (s[i] >= 'a' && s[i] <= 'z') ||
                     (s[i] >= 'A' && s[i] <= 'Z') || (i > 0 && s[i] >= '0' && s[i] <= '9')))
        i++;
    return i > 0 && i < n && s[i] == ':' && s[0] != '-' ? i : 0;
}

static int is_blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

static void write_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fputc('\\', out);
        fputc(c < 0x20 || c == 0x7F ? ' ' : c, out);
    }
    fputc('"', out);
}

/* Copy the profile text to out without its top-level `drop:` sections (the
 * key line and the indented or blank lines under it) and with the top-level
 * `swap:` section (when swap is non-NULL) replaced by `with`; end with a
 * newline. */
static void copy_sections(FILE *out, const char *text, size_t len, const char *drop,
                          const char *swap, const char *with)
{
    size_t dl = strlen(drop), sl = swap ? strlen(swap) : 0;
    int skipping = 0, last_nl = 1;
    for (size_t i = 0; i < len;) {
        const char *line = text + i;
        const char *nl = memchr(line, '\n', len - i);
        size_t l = nl ? (size_t)(nl - line) + 1 : len - i;
        i += l;
        size_t k = top_key(line, l);
        if (k == dl && !strncmp(line, drop, dl)) {
            skipping = 1;
            continue;
        }
        if (swap && k == sl && !strncmp(line, swap, sl)) {
            fputs(with, out);
            skipping = 1;
            continue;
        }
        if (skipping && !is_blank_line(line, l) && (line[0] == ' ' || line[0] == '\t'))
            continue;
        if (!is_blank_line(line, l))
            skipping = 0;
        fwrite(line, 1, l, out);
        last_nl = line[l - 1] == '\n';
    }
    if (!last_nl)
        fputc('\n', out);
}

pn_status_t pn_profile_write(FILE *out, const char *text, size_t len, const pn_calibration_t *c,
                             pn_error_t *err)
{
    if (!(c->us_per_step > 0) || !isfinite(c->us_per_step) || !isfinite(c->us_offset))
        return pn_error_set(err, PN_EINVAL,
                            "calibration: us_per_step must be a finite number > 0 and "
                            "us_offset finite, got us_per_step = %g, us_offset = %g",
                            c->us_per_step, c->us_offset);
    if (c->set_latency) {
        int found = 0;
        for (size_t i = 0; i < len && !found;) {
            const char *nl = memchr(text + i, '\n', len - i);
            size_t l = nl ? (size_t)(nl - (text + i)) + 1 : len - i;
            size_t k = top_key(text + i, l);
            found = k == 7 && !strncmp(text + i, "latency", 7);
            i += l;
        }
        if (!found)
            return pn_error_set(err, PN_EINVAL,
                                "device profile has no top-level 'latency:' key to replace");
    }
    char lat[1024] = "";
    if (c->set_latency)
        snprintf(lat, sizeof lat, "latency:%s%s\n  global: %u\n  shared: %u\n",
                 c->latency_note ? "                    # " : "",
                 c->latency_note ? c->latency_note : "", c->l1, c->l2);
    copy_sections(out, text, len, "calibration", c->set_latency ? "latency" : NULL, lat);
    fprintf(out, "calibration:                # time_us = us_per_step * steps + us_offset\n");
    fprintf(out, "  us_per_step: %.10g\n  us_offset: %.10g\n  source: ", c->us_per_step,
            c->us_offset);
    write_quoted(out, c->source && *c->source ? c->source : "pnsim calibrate");
    fputc('\n', out);
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}

pn_status_t pn_profile_replace(FILE *out, const char *text, size_t len, const char *key,
                               const char *section, pn_error_t *err)
{
    copy_sections(out, text, len, key, NULL, NULL);
    fputs(section, out);
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}
