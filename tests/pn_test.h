/* pn_test.h - helpers shared by the unit tests: expected error messages, and
 * running from the repository root whatever the working directory.
 * Include after <cmocka.h>. */
#ifndef PN_TEST_H
#define PN_TEST_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pn_error.h"

#ifndef PN_DEVICE_DIR_DEFAULT
#define PN_DEVICE_DIR_DEFAULT "models/devices"
#endif

/* Fail unless err's message starts with prefix, contains sub (may be NULL)
 * and is one line. */
static inline void pn_test_expect_msg(const pn_error_t *err, const char *prefix, const char *sub)
{
    if (strncmp(err->msg, prefix, strlen(prefix)) || (sub && !strstr(err->msg, sub))) {
        print_error("message: %s\nexpected prefix: %s\nand substring: %s\n", err->msg, prefix,
                    sub ? sub : "");
        fail();
    }
    assert_null(strchr(err->msg, '\n'));
}

/* Clear PNSIM_DEVICE_DIR and move to the repository root (the Makefile's
 * PN_DEVICE_DIR_DEFAULT is <root>/models/devices) unless `probe`, a path
 * relative to the root, is readable already. Returns 0, or -1 when the
 * root cannot be found. */
static inline int pn_test_chdir_root(const char *probe)
{
    unsetenv("PNSIM_DEVICE_DIR");
    if (access(probe, R_OK) == 0)
        return 0;
    char root[4096];
    const char *d = PN_DEVICE_DIR_DEFAULT;
    size_t n = strlen(d), m = strlen("/models/devices");
    if (n <= m || n - m >= sizeof root || strcmp(d + n - m, "/models/devices"))
        return -1;
    memcpy(root, d, n - m);
    root[n - m] = '\0';
    return chdir(root) == 0 && access(probe, R_OK) == 0 ? 0 : -1;
}

#endif
