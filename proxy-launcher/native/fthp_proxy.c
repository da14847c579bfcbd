/*
 * fthp_proxy: preloaded into the native launcher (mpirun) only, never into
 * the application: it unsets LD_PRELOAD as it loads, so the ranks mpirun
 * starts do not inherit it.
 *
 * Open MPI 4.1's launcher notices a dead rank when waitpid() reaps it, and
 * then aborts the whole job. With replication a dead rank is the
 * coordinators' business (its replica takes over, or they end the job), so
 * waitpid() here hides a child killed by a signal: the real status is held and
 * the caller sees nothing. When the launcher has no child left (the real call
 * says ECHILD), the held children are released one by one as clean exits, so
 * mpirun finishes with the application's own exit status. (mpirun must also
 * be run with --mca orte_allowed_exit_without_sync 1, or it reports the
 * released ranks as having skipped MPI_Finalize.)
 *
 * Every hidden death is written, as its pid and a newline, to the file named
 * by FTHP_PROXY_REPORT (appended) so the failure can be reported; the
 * coordinators learn about it from the lost connection anyway.
 *
 * Only waitpid() is intercepted: it is the one call Open MPI 4.1's launcher
 * uses to reap its children (orte/runtime/orte_wait.c), verified by test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_HELD 4096

static pid_t (*real_waitpid)(pid_t, int *, int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t held[MAX_HELD];
static int held_count;
static char report_path[4096];

__attribute__((constructor)) static void fthp_proxy_init(void) {
    real_waitpid = (pid_t (*)(pid_t, int *, int)) dlsym(RTLD_NEXT, "waitpid");
    const char *report = getenv("FTHP_PROXY_REPORT");
    if (report != NULL && strlen(report) < sizeof report_path) {
        strcpy(report_path, report);
    }
    unsetenv("LD_PRELOAD");   /* the ranks must not inherit us */
}

static void report(pid_t pid) {
    if (report_path[0] == '\0') {
        return;
    }
    int fd = open(report_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return;
    }
    char line[32];
    int n = snprintf(line, sizeof line, "%ld\n", (long) pid);
    if (n > 0) {
        ssize_t ignored = write(fd, line, (size_t) n);
        (void) ignored;
    }
    close(fd);
}

pid_t waitpid(pid_t pid, int *status, int options) {
    for (;;) {
        int st = 0;
        pid_t r = real_waitpid(pid, &st, options);
        if (r > 0 && WIFSIGNALED(st)) {
            pthread_mutex_lock(&lock);
            int kept = held_count < MAX_HELD;
            if (kept) {
                held[held_count++] = r;
            }
            pthread_mutex_unlock(&lock);
            if (kept) {
                report(r);
                continue;   /* hidden: look for the next child, as the caller asked */
            }
        }
        if (r < 0 && errno == ECHILD && (pid == -1 || pid == 0)) {
            pthread_mutex_lock(&lock);
            pid_t release = held_count > 0 ? held[--held_count] : 0;
            pthread_mutex_unlock(&lock);
            if (release > 0) {
                if (status != NULL) {
                    *status = 0;   /* released as a clean exit */
                }
                return release;
            }
        }
        if (status != NULL) {
            *status = st;
        }
        return r;
    }
}
