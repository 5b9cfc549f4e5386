/* pn_error.h - status codes and error messages with context for all of pnsim.
 *
 * Every fallible function returns a pn_status_t (PN_OK == 0) and, when given a
 * non-NULL pn_error_t, leaves a one-line message there that names where the
 * problem is ("file:line:col: what was expected"). */
#ifndef PN_ERROR_H
#define PN_ERROR_H

#include <stdarg.h>

typedef enum pn_status {
    PN_OK = 0,
    PN_ENOMEM,    /* allocation failed */
    PN_EINVAL,    /* invalid argument or invalid input value */
    PN_EIO,       /* file could not be read or written */
    PN_ESYNTAX,   /* malformed input text (YAML, CSV, expression) */
    PN_ELIMIT,    /* a limit was exceeded (device, max_steps, counts) */
    PN_EEXTERNAL, /* a library (igraph, GSL, libxml2) reported a failure */
    PN_EINTR      /* stopped on request (a run's stop flag, set by a signal) */
} pn_status_t;

#define PN_ERROR_MSG_MAX 2048

typedef struct pn_error {
    pn_status_t code;
    char msg[PN_ERROR_MSG_MAX];
} pn_error_t;

/* Propagate a non-OK status to the caller. */
#define PN_CHECK(expr)                                  \
    do {                                                \
        pn_status_t pn_check_status_ = (expr);          \
        if (pn_check_status_ != PN_OK)                  \
            return pn_check_status_;                    \
    } while (0)

#if defined(__GNUC__)
#define PN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PN_PRINTF(f, a)
#endif

/* Clear err (code PN_OK, empty message). err may be NULL. */
void pn_error_clear(pn_error_t *err);

/* Record code and a printf-style message in err (may be NULL); returns code so
 * that callers can write `return pn_error_set(err, PN_EINVAL, "...")`. */
pn_status_t pn_error_set(pn_error_t *err, pn_status_t code, const char *fmt, ...)
    PN_PRINTF(3, 4);

/* As pn_error_set, prefixing the message with "file:line:col: ". line and col
 * are 1-based; a line <= 0 omits line and column, a col <= 0 omits the column,
 * a NULL file omits the whole prefix. */
pn_status_t pn_error_at(pn_error_t *err, pn_status_t code, const char *file,
                        long line, long col, const char *fmt, ...) PN_PRINTF(6, 7);

/* As pn_error_at with a va_list. */
pn_status_t pn_error_vat(pn_error_t *err, pn_status_t code, const char *file,
                         long line, long col, const char *fmt, va_list ap);

/* Prepend "prefix: " to the message already in err (no-op for NULL err). */
void pn_error_prefix(pn_error_t *err, const char *prefix);

/* A short constant name for a status ("out of memory", ...). Never NULL. */
const char *pn_status_str(pn_status_t code);

#endif
