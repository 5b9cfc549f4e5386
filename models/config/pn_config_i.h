/* pn_config_i.h - what the reader (pn_config.c) calls of the expression
 * module (pn_config_expr.c) to check expressions at load time; not part of
 * the public API. */
#ifndef PN_CONFIG_I_H
#define PN_CONFIG_I_H

#include <stddef.h>

#include "pn_config.h"
#include "pn_error.h"

/* Is s an identifier of the expression language (letters, digits, '_', not
 * starting with a digit)? */
int pn_config_i_is_identifier(const char *s);

/* Is s a constant or function name of the expression language? */
int pn_config_i_is_builtin(const char *s);

/* Check the syntax and the variables of e (what names it in messages; errors
 * "path:line:col: ..." at e, PN_ESYNTAX or PN_EINVAL); on success *ev (when
 * ev is non-NULL) receives a libmatheval evaluator the caller destroys with
 * evaluator_destroy. Thread-safe. */
pn_status_t pn_config_i_expr_compile(const pn_config_t *cfg, const pn_expr_t *e,
                                     const char *what, void **ev, pn_error_t *err);

/* Load-time check of e: syntax, variables, and the value when e has no
 * variables (a count in 0..PN_SM_MAX_COUNT after rounding). */
pn_status_t pn_config_i_expr_check(const pn_config_t *cfg, const pn_expr_t *e,
                                   const char *what, pn_error_t *err);

#endif
