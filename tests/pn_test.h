/* pn_test.h - helpers shared by the unit tests: expected error messages, and
 * running from the repository root whatever the working directory.
 * Include after <cmocka.h>. */
#ifndef PN_TEST_H
#define PN_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pn_error.h"
#include "pn_net.h"

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

/* Fail unless the counting net cnt has the sizes of the net full: places,
 * transitions and arcs of each kind. */
static inline void pn_test_same_sizes(const pn_net_t *cnt, const pn_net_t *full)
{
    assert_int_equal(cnt->n_places, full->n_places);
    assert_int_equal(cnt->n_trans, full->n_trans);
    for (int k = PN_ARC_INPUT; k <= PN_ARC_INHIBITOR; k++)
        assert_int_equal(pn_net_n_arcs(cnt, (pn_arc_kind_t)k),
                         pn_net_n_arcs(full, (pn_arc_kind_t)k));
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

/* Run load on every file of dir whose name starts with prefix and ends with
 * suffix. Each file's first line "# error: L:C: text" says what load must
 * report: a message starting with "path:L:C: " ("path:L: " when C is 0,
 * "path: " when L is 0, as pn_error_at writes them) and containing text.
 * Returns the number of files checked. */
static inline int pn_test_bad_fixtures(const char *dir, const char *prefix, const char *suffix,
                                       pn_status_t (*load)(const char *path, pn_error_t *err))
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int checked = 0;
    size_t np = strlen(prefix), ns = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < np + ns || strncmp(e->d_name, prefix, np) != 0 ||
            strcmp(e->d_name + n - ns, suffix) != 0)
            continue;
        char path[512], first[512], want[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(first, sizeof first, f));
        fclose(f);
        first[strcspn(first, "\n")] = '\0';
        long line = 0, col = 0;
        int used = 0;
        if (sscanf(first, "# error: %ld:%ld: %n", &line, &col, &used) != 2 || !used) {
            print_error("%s: first line is not '# error: LINE:COL: text'\n", path);
            fail();
        }
        if (line <= 0)
            snprintf(want, sizeof want, "%s: ", path);
        else if (col <= 0)
            snprintf(want, sizeof want, "%s:%ld: ", path, line);
        else
            snprintf(want, sizeof want, "%s:%ld:%ld: ", path, line, col);
        pn_error_t err;
        pn_error_clear(&err);
        if (load(path, &err) == PN_OK) {
            print_error("%s: accepted, expected an error\n", path);
            fail();
        }
        pn_test_expect_msg(&err, want, first + used);
        checked++;
    }
    closedir(d);
    return checked;
}

#endif
