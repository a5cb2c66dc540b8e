/* bench-thread.h -- IPP_BENCH_THREAD=1: the drivers start and join one
 * thread before their workload, so that the whole workload runs in a
 * process that has been multi-threaded (glibc's __libc_single_threaded
 * is false from the first pthread_create on, and stays false).  The
 * workload itself and its output do not change; what changes is how an
 * instrumented function takes its counters (docs/PROTOCOL.md,
 * "Counting": a single-threaded process counts in the unit's own arrays,
 * a multi-threaded one asks the runtime for the thread's).  run.sh
 * measures both. */
#ifndef BENCH_THREAD_H
#define BENCH_THREAD_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *bench_thread_body(void *arg)
{
    return arg;
}

static void bench_thread_maybe(void)
{
    const char *v = getenv("IPP_BENCH_THREAD");
    pthread_t t;
    int rc;
    if (!v || strcmp(v, "1") != 0)
        return;
    rc = pthread_create(&t, NULL, bench_thread_body, NULL);
    if (rc == 0)
        rc = pthread_join(t, NULL);
    if (rc != 0) {
        fprintf(stderr, "IPP_BENCH_THREAD: cannot start a thread: %s\n", strerror(rc));
        exit(1);
    }
}

#endif
