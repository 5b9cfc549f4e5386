/* pn_error.c - formatting of pnsim error messages. */
#include "pn_error.h"

#include <stdio.h>
#include <string.h>

void pn_error_clear(pn_error_t *err)
{
    if (err) {
        err->code = PN_OK;
        err->msg[0] = '\0';
    }
}

pn_status_t pn_error_vat(pn_error_t *err, pn_status_t code, const char *file,
                         long line, long col, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    size_t n = 0;
    err->code = code;
    err->msg[0] = '\0';
    if (file) {
        int w;
        if (line > 0 && col > 0)
            w = snprintf(err->msg, sizeof err->msg, "%s:%ld:%ld: ", file, line, col);
        else if (line > 0)
            w = snprintf(err->msg, sizeof err->msg, "%s:%ld: ", file, line);
        else
            w = snprintf(err->msg, sizeof err->msg, "%s: ", file);
        n = w < 0 ? 0 : (size_t)w;
        if (n >= sizeof err->msg)
            n = sizeof err->msg - 1;
    }
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    return code;
}

pn_status_t pn_error_at(pn_error_t *err, pn_status_t code, const char *file,
                        long line, long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pn_error_vat(err, code, file, line, col, fmt, ap);
    va_end(ap);
    return code;
}

pn_status_t pn_error_set(pn_error_t *err, pn_status_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pn_error_vat(err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

void pn_error_prefix(pn_error_t *err, const char *prefix)
{
    if (!err || !prefix)
        return;
    size_t pl = strlen(prefix) + 2, ml = strlen(err->msg);
    if (pl >= sizeof err->msg)
        return;
    if (pl + ml >= sizeof err->msg)
        ml = sizeof err->msg - pl - 1;      /* truncate the tail of the old message */
    memmove(err->msg + pl, err->msg, ml);
    err->msg[pl + ml] = '\0';
    memcpy(err->msg, prefix, pl - 2);
    err->msg[pl - 2] = ':';
    err->msg[pl - 1] = ' ';
}

const char *pn_status_str(pn_status_t code)
{
    switch (code) {
    case PN_OK:        return "ok";
    case PN_ENOMEM:    return "out of memory";
    case PN_EINVAL:    return "invalid value";
    case PN_EIO:       return "input/output error";
    case PN_ESYNTAX:   return "syntax error";
    case PN_ELIMIT:    return "limit exceeded";
    case PN_EEXTERNAL: return "library error";
    case PN_EINTR:     return "interrupted";
    }
    return "unknown error";
}
