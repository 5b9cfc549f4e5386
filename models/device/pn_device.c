/* pn_device.c - device profiles: find a profile by built-in name or path and
 * read it with strict checking (keys, types, ranges) into a pn_device_t. */
#include "pn_device.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sm.h"
#include "pn_yaml.h"

#ifndef PN_DEVICE_DIR_DEFAULT
#define PN_DEVICE_DIR_DEFAULT "models/devices"
#endif

/* Ranges of the profile's integers. */
#define MAX_SMS        65536u
#define MAX_WARPS      (PN_SM_MAX_THREADS / PN_SM_WARP_THREADS)

const char *pn_device_dir(void)
{
    const char *d = getenv("PNSIM_DEVICE_DIR");
    return d && *d ? d : PN_DEVICE_DIR_DEFAULT;
}

void pn_device_destroy(pn_device_t *dev)
{
    if (!dev)
        return;
    free(dev->name);
    free(dev->description);
    free(dev->path);
    memset(dev, 0, sizeof *dev);
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
}

static int is_builtin_name(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(s[i]))
            return 0;
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "gtx480, gtx960m, h100" (sorted) into buf, or a note when dir is unreadable. */
static void list_builtins(const char *dir, char *buf, size_t size)
{
    DIR *d = opendir(dir);
    buf[0] = '\0';
    if (!d) {
        snprintf(buf, size, "none: cannot open %s: %s", dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || !ends_with(e->d_name, ".yaml") || !is_builtin_name(e->d_name, len - 5))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn)
                break;
            names = nn;
            cap = nc;
        }
        names[n] = malloc(len - 4);
        if (!names[n])
            break;
        memcpy(names[n], e->d_name, len - 5);
        names[n][len - 5] = '\0';
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (o < size)
            o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", names[i]);
        free(names[i]);
    }
    free(names);
    if (n == 0)
        snprintf(buf, size, "none found in %s", dir);
}

/* The profile path for ref (see pn_device_load); caller frees. NULL: no memory. */
static char *profile_path(const char *ref, const char *from_file, int builtin)
{
    const char *dir = NULL;
    size_t dlen = 0;
    if (builtin) {
        dir = pn_device_dir();
        dlen = strlen(dir);
    } else if (ref[0] != '/' && from_file) {
        const char *slash = strrchr(from_file, '/');
        if (slash) {
            dir = from_file;
            dlen = (size_t)(slash - from_file);
            if (dlen == 0)
                dlen = 1;   /* "/x.yaml": the root directory */
        }
    }
    size_t rlen = strlen(ref);
    size_t total = dlen + 1 + rlen + (builtin ? 5 : 0) + 1;
    char *p = malloc(total);
    if (!p)
        return NULL;
    if (dir && dlen) {
        memcpy(p, dir, dlen);
        if (p[dlen - 1] != '/')
            p[dlen++] = '/';
    }
    memcpy(p + dlen, ref, rlen);
    strcpy(p + dlen + rlen, builtin ? ".yaml" : "");
    return p;
}

static pn_status_t get_uint32(pn_yaml_t *y, yaml_node_t *map, const char *key,
                              const char *what, uint32_t min, uint32_t max, uint32_t *out,
                              pn_error_t *err)
{
    yaml_node_t *v = pn_yaml_get(y, map, key, NULL);
    uint64_t u;
    if (!v)
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(map), pn_yaml_col(map),
                           "device profile: missing key '%s'", what);
    PN_CHECK(pn_yaml_uint(y, v, what, min, max, &u, err));
    *out = (uint32_t)u;
    return PN_OK;
}

static pn_status_t parse_profile(pn_device_t *dev, pn_yaml_t *y, pn_error_t *err)
{
    static const char *const top_keys[] = {"name", "description", "sms", "schedulers",
                                           "max_warps", "max_threads_per_block",
                                           "warp_size", "latency", "calibration",
                                           "pipelined", "pipelined_calibration",
                                           "occupancy", NULL};
    static const char *const lat_keys[] = {"global", "shared", NULL};
    static const char *const cal_keys[] = {"us_per_step", "us_offset", "source", NULL};
    yaml_node_t *root = pn_yaml_root(y), *v;

    if (!root)
        return pn_error_at(err, PN_EINVAL, y->file, 0, 0,
                           "empty device profile, expected a mapping with name, sms, "
                           "schedulers, max_warps, max_threads_per_block, warp_size, latency");
    /* not a mapping: say what it is, never what it says (a path that names
     * some other file must not echo that file's contents) */
    if (!root || root->type != YAML_MAPPING_NODE)
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(root), pn_yaml_col(root),
                           "a device profile must be a mapping (name, sms, ...), got %s: "
                           "is this a pnsim device profile?",
                           !root ? "an empty file" : root->type == YAML_SCALAR_NODE
                                                         ? "a scalar" : "a list");
    PN_CHECK(pn_yaml_check_keys(y, root, "device profile", top_keys, err));

    v = pn_yaml_get(y, root, "name", NULL);
    if (!v)
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(root), pn_yaml_col(root),
                           "device profile: missing key 'name'");
    PN_CHECK(pn_yaml_string(y, v, "name", &dev->name, err));
    v = pn_yaml_get(y, root, "description", NULL);
    if (v)
        PN_CHECK(pn_yaml_string(y, v, "description", &dev->description, err));

    PN_CHECK(get_uint32(y, root, "sms", "sms", 1, MAX_SMS, &dev->sms, err));
    PN_CHECK(get_uint32(y, root, "schedulers", "schedulers", 1, PN_SM_MAX_SCHEDULERS,
                        &dev->schedulers, err));
    PN_CHECK(get_uint32(y, root, "max_warps", "max_warps", 1, MAX_WARPS, &dev->max_warps,
                        err));
    PN_CHECK(get_uint32(y, root, "max_threads_per_block", "max_threads_per_block", 1,
                        PN_SM_MAX_THREADS, &dev->max_threads_per_block, err));
    /* the net's warps are ceil(threads / 32): only 32-thread warps are modelled */
    PN_CHECK(get_uint32(y, root, "warp_size", "warp_size", PN_SM_WARP_THREADS,
                        PN_SM_WARP_THREADS, &dev->warp_size, err));

    yaml_node_t *lat_key;
    v = pn_yaml_get(y, root, "latency", &lat_key);
    if (!v)
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(root), pn_yaml_col(root),
                           "device profile: missing key 'latency' (expected "
                           "latency: {global: N, shared: N})");
    PN_CHECK(pn_yaml_expect(y, v, YAML_MAPPING_NODE, "latency", err));
    PN_CHECK(pn_yaml_check_keys(y, v, "latency", lat_keys, err));
    if (!pn_yaml_get(y, v, "global", NULL) || !pn_yaml_get(y, v, "shared", NULL))
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(lat_key), pn_yaml_col(lat_key),
                           "device profile: latency needs both 'global' and 'shared'");
    PN_CHECK(get_uint32(y, v, "global", "latency.global", 1, PN_SM_MAX_LATENCY, &dev->l1, err));
    PN_CHECK(get_uint32(y, v, "shared", "latency.shared", 1, PN_SM_MAX_LATENCY, &dev->l2, err));

    yaml_node_t *cal_key;
    v = pn_yaml_get(y, root, "calibration", &cal_key);
    if (v) {
        yaml_node_t *c;
        PN_CHECK(pn_yaml_expect(y, v, YAML_MAPPING_NODE, "calibration", err));
        PN_CHECK(pn_yaml_check_keys(y, v, "calibration", cal_keys, err));
        c = pn_yaml_get(y, v, "us_per_step", NULL);
        if (!c)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(cal_key),
                               pn_yaml_col(cal_key),
                               "device profile: calibration needs 'us_per_step'");
        PN_CHECK(pn_yaml_number(y, c, "calibration.us_per_step", &dev->us_per_step, err));
        if (!(dev->us_per_step > 0))
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(c), pn_yaml_col(c),
                               "calibration.us_per_step must be > 0, got %g",
                               dev->us_per_step);
        c = pn_yaml_get(y, v, "us_offset", NULL);
        dev->us_offset = 0;
        if (c)
            PN_CHECK(pn_yaml_number(y, c, "calibration.us_offset", &dev->us_offset, err));
        c = pn_yaml_get(y, v, "source", NULL);
        if (c) {
            char *src = NULL;
            PN_CHECK(pn_yaml_string(y, c, "calibration.source", &src, err));
            free(src);
        }
        dev->calibrated = 1;
    }
    if ((v = pn_yaml_get(y, root, "pipelined", NULL)) != NULL) {
        PN_CHECK(pn_pipe_device_parse(y, v, "pipelined", 1, NULL, &dev->pipe, err));
        dev->has_pipe = 1;
    }
    if ((v = pn_yaml_get(y, root, "pipelined_calibration", &cal_key)) != NULL) {
        yaml_node_t *c;
        if (!dev->has_pipe)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(cal_key),
                               pn_yaml_col(cal_key), "device profile: pipelined_calibration "
                               "needs a pipelined section");
        PN_CHECK(pn_yaml_expect(y, v, YAML_MAPPING_NODE, "pipelined_calibration", err));
        PN_CHECK(pn_yaml_check_keys(y, v, "pipelined_calibration", cal_keys, err));
        c = pn_yaml_get(y, v, "us_per_step", NULL);
        if (!c)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(cal_key),
                               pn_yaml_col(cal_key),
                               "device profile: pipelined_calibration needs 'us_per_step'");
        PN_CHECK(pn_yaml_number(y, c, "pipelined_calibration.us_per_step",
                                &dev->pipe.us_per_step, err));
        if (!(dev->pipe.us_per_step > 0))
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(c), pn_yaml_col(c),
                               "pipelined_calibration.us_per_step must be > 0, got %g",
                               dev->pipe.us_per_step);
        if ((c = pn_yaml_get(y, v, "us_offset", NULL)) != NULL)
            PN_CHECK(pn_yaml_number(y, c, "pipelined_calibration.us_offset",
                                    &dev->pipe.us_offset, err));
        if ((c = pn_yaml_get(y, v, "source", NULL)) != NULL) {
            char *src = NULL;
            PN_CHECK(pn_yaml_string(y, c, "pipelined_calibration.source", &src, err));
            free(src);
        }
        dev->pipe.calibrated = 1;
    }
    if ((v = pn_yaml_get(y, root, "occupancy", NULL)) != NULL) {
        PN_CHECK(pn_occ_rules_parse(y, v, &dev->occ, err));
        dev->has_occupancy = 1;
    }
    return PN_OK;
}

pn_status_t pn_device_load(pn_device_t *dev, const char *ref, const char *from_file,
                           long line, long col, pn_error_t *err)
{
    pn_device_t tmp;
    pn_yaml_t y;
    char *text = NULL, *path = NULL;
    size_t len = 0;
    pn_status_t st;
    const char *at = line > 0 ? from_file : NULL;

    if (!dev)
        return pn_error_set(err, PN_EINVAL, "pn_device_load: dev is NULL");
    memset(dev, 0, sizeof *dev);
    memset(&tmp, 0, sizeof tmp);
    if (!ref || !*ref)
        return pn_error_at(err, PN_EINVAL, at, line, col,
                           "device must be a built-in name or a path to a .yaml profile, "
                           "got an empty string");

    size_t rlen = strlen(ref);
    int is_path = strchr(ref, '/') != NULL || ends_with(ref, ".yaml");
    int builtin = !is_path && is_builtin_name(ref, rlen);
    if (!is_path && !builtin) {
        char list[512];
        list_builtins(pn_device_dir(), list, sizeof list);
        return pn_error_at(err, PN_EINVAL, at, line, col,
                           "unknown device '%s' (expected a built-in name: %s; "
                           "or a path to a .yaml profile)", ref, list);
    }
    path = profile_path(ref, from_file, builtin);
    if (!path)
        return pn_error_at(err, PN_ENOMEM, at, line, col, "out of memory");
    if (pn_yaml_read_file(path, &text, &len) != PN_OK) {
        int e = errno;
        if (builtin && e == ENOENT) {
            char list[512];
            list_builtins(pn_device_dir(), list, sizeof list);
            st = pn_error_at(err, PN_EINVAL, at, line, col,
                             "unknown device '%s' (expected a built-in name: %s; "
                             "or a path to a .yaml profile)", ref, list);
        } else if (at) {
            st = pn_error_at(err, PN_EIO, at, line, col, "cannot read device profile %s: %s",
                             path, pn_yaml_strerror(e));
        } else {
            st = pn_error_at(err, PN_EIO, path, 0, 0, "cannot read device profile: %s",
                             pn_yaml_strerror(e));
        }
        free(path);
        return st;
    }
    st = pn_yaml_load(&y, text, len, path, err);
    if (st == PN_OK) {
        st = parse_profile(&tmp, &y, err);
        pn_yaml_destroy(&y);
    }
    free(text);
    if (st != PN_OK) {
        free(path);
        pn_device_destroy(&tmp);
        return st;
    }
    tmp.path = path;
    *dev = tmp;
    return PN_OK;
}
