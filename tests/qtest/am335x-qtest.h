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

#endif
