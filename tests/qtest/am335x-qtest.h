/*
 * What the AM335x qtests share
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AM335X_QTEST_H
#define AM335X_QTEST_H

#include "libqtest.h"
#include "qobject/qdict.h"

/* Polls query-migrate until the migration is over; returns its status. */
static inline char *am335x_migration_status(QTestState *qts)
{
    for (int i = 0; i < 1000; i++) {
        QDict *resp = qtest_qmp(qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(resp, "return");
        const char *status = ret ? qdict_get_try_str(ret, "status") : NULL;
        char *result = NULL;

        /* "device": the devices' state is being saved, not done yet */
        if (status && strcmp(status, "active") && strcmp(status, "setup") &&
            strcmp(status, "device")) {
            result = g_strdup(status);
        }
        qobject_unref(resp);
        if (result) {
            return result;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

/*
 * Migrates @src through a file into a QEMU started with @dst_args (to which
 * "-incoming" is added), quitting @src first; returns the destination once
 * its migration has completed.
 */
static inline QTestState *am335x_migrate(QTestState *src,
                                         const char *dst_args)
{
    g_autofree char *file = NULL;
    g_autofree char *uri = NULL;
    char *status;
    QTestState *dst;
    int fd = g_file_open_tmp("am335x-mig-XXXXXX", &file, NULL);

    g_assert(fd >= 0);
    close(fd);
    uri = g_strdup_printf("file:%s", file);
    qtest_qmp_assert_success(src, "{'execute': 'migrate', 'arguments': "
                             "{'uri': %s}}", uri);
    status = am335x_migration_status(src);
    g_assert_cmpstr(status, ==, "completed");
    g_free(status);
    qtest_quit(src);

    dst = qtest_initf("%s -incoming %s", dst_args, uri);
    status = am335x_migration_status(dst);
    g_assert_cmpstr(status, ==, "completed");
    g_free(status);
    unlink(file);
    return dst;
}

/* A QOM property that is a number */
static inline int64_t am335x_qom_get_int(QTestState *qts, const char *path,
                                         const char *property)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                            "{ 'path': %s, 'property': %s } }",
                            path, property);
    int64_t value;

    g_assert(qdict_haskey(resp, "return"));
    value = qdict_get_int(resp, "return");
    qobject_unref(resp);
    return value;
}

static inline void am335x_qom_set_int(QTestState *qts, const char *path,
                                      const char *property, int64_t value)
{
    qtest_qmp_assert_success(qts, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': %s, 'property': %s, 'value': %"
                             PRId64 " } }", path, property, value);
}

/* A number from the environment (decimal, 0x hex), or @fallback */
static inline uint64_t am335x_env_number(const char *name, uint64_t fallback)
{
    const char *s = g_getenv(name);

    return s && *s ? g_ascii_strtoull(s, NULL, 0) : fallback;
}

/*
 * What a booted kernel does first: every module's clock on (MODULEMODE
 * ENABLE in each CM_PER and CM_WKUP CLKCTRL; TRM 8.1.12.1), so that
 * traffic reaches devices that are running.
 */
static inline void am335x_enable_modules(QTestState *qts)
{
    for (uint32_t a = 0x44e00014; a < 0x44e00150; a += 4) {
        qtest_writel(qts, a, 2);
    }
    /* CM_WKUP, up to WDT1 (ADC_TSC_CLKCTRL is at 0x4bc) */
    for (uint32_t a = 0x44e00400; a < 0x44e004d8; a += 4) {
        qtest_writel(qts, a, 2);
    }
}

/* Registers @fn as am335x/@device/@machine/@name, @machine its data */
static inline void am335x_add_machine_test(const char *device,
                                           const char *machine,
                                           const char *name,
                                           GTestDataFunc fn)
{
    g_autofree char *path = g_strdup_printf("am335x/%s/%s/%s", device,
                                            machine, name);

    qtest_add_data_func(path, machine, fn);
}

#endif
