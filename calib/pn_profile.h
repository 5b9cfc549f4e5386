/* pn_profile.h - write a calibrated device profile: the original profile's
 * text, comments kept, with its calibration section (and optionally its
 * latency) replaced. */
#ifndef PN_PROFILE_H
#define PN_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_error.h"

typedef struct pn_calibration {
    double us_per_step;           /* > 0 */
    double us_offset;
    const char *source;           /* one line: where the fit came from */
    int set_latency;              /* replace the latency section with l1, l2 */
    uint32_t l1, l2;
    const char *latency_note;     /* comment after `latency:` when set_latency; may be NULL */
} pn_calibration_t;

/* Write the profile text (len bytes, as read from a profile file) to out with
 * every top-level `calibration:` section removed (its key line and the
 * indented or flow-continuation lines under it) and, when c->set_latency,
 * the top-level `latency:` section replaced by `latency: {global: l1,
 * shared: l2}` in block style; then append
 *   calibration:
 *     us_per_step: <%.10g>
 *     us_offset: <%.10g>
 *     source: "<source, with \ and " escaped>"
 * Everything else, comments included, is copied byte for byte. Errors:
 * PN_EINVAL when us_per_step is not > 0 or a value is not finite, or when
 * set_latency and the text has no top-level `latency:` key; PN_EIO when out
 * reports an error. O(len). */
pn_status_t pn_profile_write(FILE *out, const char *text, size_t len, const pn_calibration_t *c,
                             pn_error_t *err);

/* Write the profile text (len bytes) to out with every top-level `key:`
 * section removed (its key line and the lines under it, as above), then
 * `section` (text ending in a newline) appended. Everything else, comments
 * included, is copied byte for byte. PN_EIO when out reports an error. O(len). */
pn_status_t pn_profile_replace(FILE *out, const char *text, size_t len, const char *key,
                               const char *section, pn_error_t *err);

#endif
