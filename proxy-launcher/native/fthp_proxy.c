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
 * Every hidden death is reported as its pid and a newline to each path in
 * FTHP_PROXY_REPORT (colon-separated). fthp-run lists there the named pipe
 * (FIFO) of every node coordinator of this host; each coordinator reads its
 * pipe on a thread blocked in read(), and the one the pid registered with
 * fails it. This matters for a rank that dies before it has registered (say
 * inside MPI_Init): no connection exists whose end would tell, so the report
 * is the only sign of the death. A path that is not a FIFO is a plain file
 * and is appended to (the proxy's own test reads it).
 *
 * Only waitpid() is intercepted: it is the one call Open MPI 4.1's launcher
 * uses to reap its children (orte/runtime/orte_wait.c, on SIGCHLD), verified
 * by test; wait()/waitid() are never called there, so hooking them would be
 * untested code in every mpirun.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_HELD 4096

static pid_t (*real_waitpid)(pid_t, int *, int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t held[MAX_HELD];
static int held_count;
static char report_paths[4096];   /* FTHP_PROXY_REPORT: path[:path...] */

__attribute__((constructor)) static void fthp_proxy_init(void) {
    real_waitpid = (pid_t (*)(pid_t, int *, int)) dlsym(RTLD_NEXT, "waitpid");
    const char *report = getenv("FTHP_PROXY_REPORT");
    if (report != NULL && strlen(report) < sizeof report_paths) {
        strcpy(report_paths, report);
    }
    unsetenv("LD_PRELOAD");   /* the ranks must not inherit us */
}

/*
 * Writes one report line to one path; never blocks and never fails mpirun.
 * A FIFO is opened O_NONBLOCK: with no coordinator reading it any more the
 * open fails at once (ENXIO) instead of waiting for a reader, and a full pipe
 * fails the write (EAGAIN) instead of stalling the launcher; 64 KiB of
 * unread pids does not happen while a coordinator lives. Opened per report,
 * so nothing stays open across mpirun's own fork/exec (and O_CLOEXEC covers
 * a fork in between). A line is far below PIPE_BUF, so it is written
 * atomically and never interleaves with another writer's.
 */
static void report_to(const char *path, const char *line, size_t n) {
    struct stat st;
    int fd;
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    } else {
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    }
    if (fd < 0) {
        return;
    }
    ssize_t ignored = write(fd, line, n);
    (void) ignored;
    close(fd);
}

/* Tells every listed path that pid died. */
static void report(pid_t pid) {
    char line[32];
    int n = snprintf(line, sizeof line, "%ld\n", (long) pid);
    if (n <= 0 || report_paths[0] == '\0') {
        return;
    }
    char path[sizeof report_paths];
    const char *p = report_paths;
    for (;;) {
        const char *end = strchr(p, ':');
        size_t len = end != NULL ? (size_t) (end - p) : strlen(p);
        if (len > 0) {
            memcpy(path, p, len);
            path[len] = '\0';
            report_to(path, line, (size_t) n);
        }
        if (end == NULL) {
            return;
        }
        p = end + 1;
    }
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
