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
 * On several hosts mpirun also has children that are not ranks: the remote
 * agent (ssh, or the tests' namespace agent) of each other host's orted, which
 * lives as long as the job. With one of those left the real call never says
 * ECHILD, so a hidden rank would be held for ever and mpirun would wait for it
 * for ever. So when the real call says no child has exited yet (WNOHANG, 0)
 * and none of the live children is a rank (no OMPI_COMM_WORLD_RANK in its
 * environment; a child that is exiting counts as a rank, to be safe), the
 * held ranks are released too. On one host every child of mpirun is a rank:
 * nothing changes there.
 *
 * The agents die too: a whole host's failure kills the agent that reached it
 * (in the emulation it runs inside the host; ssh ends when its connection
 * does). Its death is hidden like a rank's (else mpirun takes it for a daemon
 * that failed to start and ends the job) but never reported: no coordinator
 * owns its pid, and a report would end the job as a process that died before
 * it registered. The lost host is the coordinators' to detect (the host's
 * coordinator connection ends). A child is known for an agent from the moment
 * it execs: execve()/execvp() are intercepted in mpirun's forked children
 * (still this library, before the exec replaces it), and a child whose new
 * environment has no OMPI_COMM_WORLD_RANK writes its pid into a table shared
 * with mpirun (an anonymous shared mapping made here before any fork), where
 * waitpid() looks it up after the child's death, when /proc no longer shows
 * its environment.
 *
 * FTHP_PROXY_REPORT_EXITS=1 (several hosts, where mpirun and the orteds run
 * with orte_enable_recovery so that a lost host does not end the job): a
 * child that exits with a non-zero status is also reported, and passed on
 * as it is. In recovery mode Open MPI ignores such an exit (the job goes on
 * and mpirun even ends with 0), so a rank whose JVM failed before it
 * registered (a class not found) would leave the others waiting in MPI_Init
 * for ever; reported, it is a pid no coordinator owns and the job ends.
 *
 * FTHP_PROXY_TRACE=path (the recovery benchmark): every hidden death is also
 * appended to that file as one JSON line with the wall-clock time mpirun
 * reaped it ({"time":...,"event":"proxy-reaped","pid":...}), the same format
 * as fthp-run's event log, so the benchmark can split a detection into the
 * killed process's teardown (kill to reaped) and the report's way to the
 * coordinators (reaped to detected).
 *
 * Only waitpid() is intercepted to reap: it is the one call Open MPI 4.1's launcher
 * uses to reap its children (orte/runtime/orte_wait.c, on SIGCHLD), verified
 * by test; wait()/waitid() are never called there, so hooking them would be
 * untested code in every mpirun.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 4096

static pid_t (*real_waitpid)(pid_t, int *, int);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t held[MAX_HELD];
static int held_count;
static char report_paths[4096];   /* FTHP_PROXY_REPORT: path[:path...] */
static char trace_path[4096];     /* FTHP_PROXY_TRACE: a file, or empty */

#define MAX_AGENTS 1024
/* Pids of children that exec'd something other than a rank; shared with the children (MAP_SHARED), 0 = free. */
static pid_t *agents;
static pid_t launcher_pid;
static int report_exits;   /* FTHP_PROXY_REPORT_EXITS=1: report non-zero exits too */
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execvp)(const char *, char *const[]);
extern char **environ;

__attribute__((constructor)) static void fthp_proxy_init(void) {
    real_waitpid = (pid_t (*)(pid_t, int *, int)) dlsym(RTLD_NEXT, "waitpid");
    real_execve = (int (*)(const char *, char *const[], char *const[])) dlsym(RTLD_NEXT, "execve");
    real_execvp = (int (*)(const char *, char *const[])) dlsym(RTLD_NEXT, "execvp");
    launcher_pid = getpid();
    const char *exits = getenv("FTHP_PROXY_REPORT_EXITS");
    report_exits = exits != NULL && strcmp(exits, "1") == 0;
    void *table = mmap(NULL, MAX_AGENTS * sizeof(pid_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    agents = table == MAP_FAILED ? NULL : (pid_t *) table;
    const char *report = getenv("FTHP_PROXY_REPORT");
    if (report != NULL && strlen(report) < sizeof report_paths) {
        strcpy(report_paths, report);
    }
    const char *trace = getenv("FTHP_PROXY_TRACE");
    if (trace != NULL && strlen(trace) < sizeof trace_path) {
        strcpy(trace_path, trace);
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

/* FTHP_PROXY_TRACE: when this launcher reaped pid (UTC, nanoseconds), as one appended JSON line. */
static void trace_reaped(pid_t pid) {
    if (trace_path[0] == '\0') {
        return;
    }
    struct timespec now;
    struct tm utc;
    char day[32];
    char line[128];
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &utc);
    strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &utc);
    int n = snprintf(line, sizeof line, "{\"time\":\"%s.%09ldZ\",\"event\":\"proxy-reaped\",\"pid\":%ld}\n",
            day, now.tv_nsec, (long) pid);
    if (n > 0 && (size_t) n < sizeof line) {
        report_to(trace_path, line, (size_t) n);
    }
}

/* Whether child is an MPI process of the job (Open MPI sets OMPI_COMM_WORLD_RANK for every rank it starts). */
static int is_rank(const char *pid_dir) {
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/environ", pid_dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 1;   /* cannot tell: keep holding */
    }
    static const char key[] = "OMPI_COMM_WORLD_RANK=";
    char buf[8192];
    size_t keep = 0;
    int found = 0;
    ssize_t n;
    while (!found && (n = read(fd, buf + keep, sizeof buf - keep)) > 0) {
        size_t len = keep + (size_t) n;
        size_t start = 0;
        for (size_t i = 0; i < len && !found; i++) {
            if (buf[i] == '\0') {
                if (i - start >= sizeof key - 1 && memcmp(buf + start, key, sizeof key - 1) == 0) {
                    found = 1;
                }
                start = i + 1;
            }
        }
        /* carry the unfinished variable over to the next read */
        keep = len - start;
        if (keep >= sizeof buf) {
            keep = 0;
        }
        memmove(buf, buf + start, keep);
    }
    close(fd);
    return found;
}

/* Whether any live child of this process is a rank (a zombie counts as one: it is about to be reaped). */
static int rank_child_left(void) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) {
        return 1;
    }
    pid_t self = getpid();
    int left = 0;
    struct dirent *e;
    while (!left && (e = readdir(proc)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') {
            continue;
        }
        char path[300];
        char stat[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        ssize_t n = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (n <= 0) {
            continue;
        }
        stat[n] = '\0';
        char *after = strrchr(stat, ')');   /* the command name may hold spaces and parentheses */
        char state;
        long ppid;
        if (after == NULL || sscanf(after + 1, " %c %ld", &state, &ppid) != 2 || ppid != (long) self) {
            continue;
        }
        left = state == 'Z' || is_rank(e->d_name);
    }
    closedir(proc);
    return left;
}

/* Whether an environment names an MPI rank (Open MPI sets OMPI_COMM_WORLD_RANK for every rank it starts). */
static int env_is_rank(char *const envp[]) {
    static const char key[] = "OMPI_COMM_WORLD_RANK=";
    for (char *const *e = envp; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, key, sizeof key - 1) == 0) {
            return 1;
        }
    }
    return 0;
}

/* In a forked child of the launcher, about to exec a non-rank (an agent): note its pid for the launcher. */
static void note_exec(char *const envp[]) {
    if (agents == NULL || getpid() == launcher_pid || env_is_rank(envp)) {
        return;
    }
    pid_t self = getpid();
    for (int i = 0; i < MAX_AGENTS; i++) {
        pid_t expected = 0;
        if (__atomic_load_n(&agents[i], __ATOMIC_ACQUIRE) == self
                || __atomic_compare_exchange_n(&agents[i], &expected, self, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return;
        }
    }
}

/* Whether a reaped child was an agent (see note_exec). */
static int is_agent(pid_t child) {
    if (agents == NULL) {
        return 0;
    }
    for (int i = 0; i < MAX_AGENTS; i++) {
        pid_t p = __atomic_load_n(&agents[i], __ATOMIC_ACQUIRE);
        if (p == 0) {
            return 0;
        }
        if (p == child) {
            return 1;
        }
    }
    return 0;
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    note_exec(envp);
    return real_execve(path, argv, envp);
}

int execvp(const char *file, char *const argv[]) {
    note_exec(environ);
    return real_execvp(file, argv);
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
                if (!is_agent(r)) {
                    report(r);
                    trace_reaped(r);
                }
                continue;   /* hidden: look for the next child, as the caller asked */
            }
        }
        if (r > 0 && report_exits && WIFEXITED(st) && WEXITSTATUS(st) != 0 && !is_agent(r)) {
            report(r);   /* not hidden: recovery mode would ignore it and leave the job waiting */
        }
        int none_left = r < 0 && errno == ECHILD;
        if (!none_left && r == 0 && (options & WNOHANG)) {
            pthread_mutex_lock(&lock);
            int holding = held_count > 0;
            pthread_mutex_unlock(&lock);
            none_left = holding && !rank_child_left();
        }
        if (none_left && (pid == -1 || pid == 0)) {
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
