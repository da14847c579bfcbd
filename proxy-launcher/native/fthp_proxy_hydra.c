/*
 * fthp_proxy_hydra: failure hiding for MPICH's launcher (hydra, MPICH 4.0.2),
 * the counterpart of fthp_proxy.c (Open MPI's mpirun). Built by Maven beside
 * it and preloaded by fthp-run --mpi mpich when coordinators decide about
 * deaths (NativeMpi); docs/notes/mpich.md says what it was measured to do.
 * The survivors of a death leave without the native MPI_Finalize on MPICH
 * (Empi.finalizeSurvivesDeadPeers), an end this library hides like a death.
 *
 * Preloaded (LD_PRELOAD) into mpiexec.hydra, whose environment its local
 * hydra_pmi_proxy inherits; the library acts only inside hydra_pmi_proxy, the
 * process that forks the ranks, reaps them and kills them. Two things there
 * tear a job down when a rank dies (src/pm/hydra/pm/pmiserv of MPICH 4.0.2):
 *
 * 1. the proxy's main loop calls waitpid(-1, WNOHANG) after every event, and
 *    a child killed by a signal makes it SIGKILL every local rank, whatever
 *    -disable-auto-cleanup says;
 * 2. the rank's PMI connection (an AF_UNIX socketpair the proxy polls) ends:
 *    the proxy SIGKILLs every local rank, or with -disable-auto-cleanup sends
 *    them SIGUSR1 (which kills an MPICH 4 rank: no handler) and tells
 *    mpiexec the rank terminated.
 *
 * So two calls are intercepted here:
 * - waitpid(): as in fthp_proxy.c, a child killed by a signal is held and
 *   hidden, reported by pid to every path in FTHP_PROXY_REPORT, and released
 *   as a clean exit once the real call says ECHILD (the proxy's final
 *   blocking loop then counts it as done);
 * - poll(): an AF_UNIX stream socket that polls readable at end-of-stream
 *   (a PMI connection whose rank is gone; the ranks' stdout/stderr are pipes
 *   and the upstream connection to mpiexec is TCP, both left alone) gets a
 *   descriptor that is never ready put in its place (dup2), and its event is
 *   removed from the result, so the proxy never reads the end of the stream.
 *   A rank that ends normally sends PMI finalize first and the proxy stops
 *   polling its connection, so only a rank that died mid-run is hidden, and
 *   not one that exited with a non-zero code (death_to_hide).
 *   The descriptor put in its place is one end of a socketpair whose other
 *   end this library keeps, because the dead rank still has a part to play:
 * - read()/write() on PMI connections: MPI_Finalize in MPICH 4.0.2 is a PMI
 *   barrier ("cmd=barrier_in"), which the proxy forwards upstream only once
 *   every one of its local ranks has entered it. So when a live rank enters
 *   a barrier (the proxy reads its barrier_in), every hidden rank that has
 *   not entered this one enters it too (barrier_in written on its
 *   socketpair); the proxy's barrier_out, written to every rank, ends the
 *   barrier for all, and what the proxy writes to a hidden rank is drained
 *   and dropped. A rank that dies after entering a barrier is not entered
 *   twice.
 *
 * In any other process (mpiexec.hydra itself, a script or timeout in front
 * of it, the ranks, which get LD_PRELOAD from mpiexec's environment through
 * hydra's environment forwarding) the interposed calls pass straight
 * through. The proxy and the ranks (children of the proxy) unset LD_PRELOAD
 * as they load; everything in front of the proxy keeps it for the proxy.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_HELD 4096
#define MAX_FD 4096

static const char BARRIER_IN[] = "cmd=barrier_in\n";
static const char BARRIER_OUT[] = "cmd=barrier_out";

static pid_t (*real_waitpid)(pid_t, int *, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int active;                /* 1 only inside hydra_pmi_proxy */

/* Per descriptor number of the proxy (all touched from its one thread). */
static int stand_in[MAX_FD];      /* a hidden rank's PMI fd: our end of its socketpair, plus 1; 0 if live */
static unsigned char entered[MAX_FD];   /* the rank on this PMI fd is in the current PMI barrier */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t held[MAX_HELD];
static int held_count;
static char report_paths[4096];   /* FTHP_PROXY_REPORT: path[:path...] */

/* The file name of a process's executable ("self" or a pid), symlinks such as mpirun.mpich resolved. */
static const char *exe_name(const char *proc, char *buf, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/%s/exe", proc);
    ssize_t n = readlink(link, buf, size - 1);
    if (n <= 0) {
        return "";
    }
    buf[n] = '\0';
    const char *slash = strrchr(buf, '/');
    return slash != NULL ? slash + 1 : buf;
}

/*
 * The real calls, found on first use: in a rank other libraries' constructors
 * (UCX's, the JVM's) call read() and write() before this library's
 * constructor has run.
 */
static void resolve(void) {
    if (real_write == NULL) {
        real_waitpid = (pid_t (*)(pid_t, int *, int)) dlsym(RTLD_NEXT, "waitpid");
        real_poll = (int (*)(struct pollfd *, nfds_t, int)) dlsym(RTLD_NEXT, "poll");
        real_read = (ssize_t (*)(int, void *, size_t)) dlsym(RTLD_NEXT, "read");
        real_write = (ssize_t (*)(int, const void *, size_t)) dlsym(RTLD_NEXT, "write");
    }
}

__attribute__((constructor)) static void fthp_proxy_hydra_init(void) {
    resolve();
    char path[4096], parent[32];
    snprintf(parent, sizeof parent, "%ld", (long) getppid());
    if (strcmp(exe_name(parent, path, sizeof path), "hydra_pmi_proxy") == 0) {
        unsetenv("LD_PRELOAD");   /* a rank: its own children do not inherit us */
        return;
    }
    /* Anything else but the proxy (mpiexec.hydra, a wrapper script or timeout in front of it)
     * keeps LD_PRELOAD, so that it reaches the proxy. */
    if (strcmp(exe_name("self", path, sizeof path), "hydra_pmi_proxy") != 0) {
        return;
    }
    unsetenv("LD_PRELOAD");
    const char *report = getenv("FTHP_PROXY_REPORT");
    if (report != NULL && strlen(report) < sizeof report_paths) {
        strcpy(report_paths, report);
    }
    active = 1;
}

/* One report line to one path; never blocks, never fails the proxy (as in fthp_proxy.c). */
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

/* Tells every path of FTHP_PROXY_REPORT that pid died. */
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
    resolve();
    if (!active) {
        return real_waitpid(pid, status, options);
    }
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

/* 1 if fd is an AF_UNIX stream socket (a PMI connection, in the proxy). */
static int is_unix_stream(int fd) {
    int domain = 0, type = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX) {
        return 0;
    }
    len = sizeof type;
    return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
}

/* 1 if fd is an AF_UNIX stream socket whose peer has gone (end of stream, or reset). */
static int is_dead_unix_stream(int fd) {
    if (!is_unix_stream(fd)) {
        return 0;
    }
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno == ECONNRESET);
}

/*
 * Whether the end of a PMI connection is a death to hide. The end comes as
 * the rank's process exits, so a child is about to be waitable: it is looked
 * at without reaping it (WNOWAIT), for up to 200 ms. A child that ended with
 * a non-zero exit code is the program's own verdict, as with fthp_proxy.c:
 * the proxy sees it and ends the job. Killed by a signal, or exit code 0
 * (a survivor that leaves without MPI_Finalize, see docs/notes/mpich.md),
 * or nothing waitable yet: hidden. With several children ending at once the
 * one looked at may not be the one whose connection ended.
 */
static int death_to_hide(void) {
    for (int waited_ms = 0; waited_ms < 200; waited_ms++) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
            return 1;
        }
        if (info.si_pid != 0) {
            return info.si_code != CLD_EXITED || info.si_status == 0;
        }
        usleep(1000);
    }
    return 1;
}

/* Every hidden rank that is not in the current barrier enters it. */
static void hidden_enter_barrier(void) {
    for (int fd = 0; fd < MAX_FD; fd++) {
        if (stand_in[fd] != 0 && !entered[fd]) {
            entered[fd] = 1;
            ssize_t ignored = real_write(stand_in[fd] - 1, BARRIER_IN, sizeof BARRIER_IN - 1);
            (void) ignored;
        }
    }
}

/* 1 if another rank than the one on fd is in a barrier now. */
static int barrier_open(void) {
    for (int fd = 0; fd < MAX_FD; fd++) {
        if (entered[fd]) {
            return 1;
        }
    }
    return 0;
}

/*
 * Puts a socketpair end in place of a dead rank's PMI fd (same number, so
 * the proxy's tables still name it). Returns 0 if that failed: the death is
 * then left for the proxy to see.
 */
static int hide_dead_pmi(int fd) {
    int pair[2];
    if (fd >= MAX_FD || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, pair) != 0) {
        return 0;
    }
    if (dup2(pair[0], fd) < 0) {
        close(pair[0]);
        close(pair[1]);
        return 0;
    }
    close(pair[0]);
    stand_in[fd] = pair[1] + 1;
    if (barrier_open()) {
        hidden_enter_barrier();   /* the others wait in a barrier: this one joins them */
    }
    return 1;
}

/* Drops what the proxy wrote to hidden ranks (barrier_out, replies). */
static void drain_stand_ins(void) {
    char sink[4096];
    for (int fd = 0; fd < MAX_FD; fd++) {
        if (stand_in[fd] != 0) {
            while (real_read(stand_in[fd] - 1, sink, sizeof sink) > 0) {
            }
        }
    }
}

ssize_t read(int fd, void *buf, size_t count) {
    resolve();
    ssize_t n = real_read(fd, buf, count);
    if (active && n > 0 && fd >= 0 && fd < MAX_FD && stand_in[fd] == 0
            && memmem(buf, (size_t) n, BARRIER_IN, sizeof BARRIER_IN - 1) != NULL && is_unix_stream(fd)) {
        entered[fd] = 1;
        hidden_enter_barrier();
    }
    return n;
}

ssize_t write(int fd, const void *buf, size_t count) {
    resolve();
    if (active && fd >= 0 && fd < MAX_FD && entered[fd]
            && memmem(buf, count, BARRIER_OUT, sizeof BARRIER_OUT - 1) != NULL) {
        entered[fd] = 0;   /* the barrier is over for this rank, hidden or not */
    }
    return real_write(fd, buf, count);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    resolve();
    if (!active) {
        return real_poll(fds, nfds, timeout);
    }
    for (;;) {
        drain_stand_ins();
        int ready = real_poll(fds, nfds, timeout);
        if (ready <= 0) {
            return ready;
        }
        int hidden = 0;
        for (nfds_t i = 0; i < nfds; i++) {
            int fd = fds[i].fd;
            if (fd < 0 || fd >= MAX_FD || stand_in[fd] != 0
                    || (fds[i].revents & (POLLIN | POLLHUP | POLLERR | POLLRDHUP)) == 0) {
                continue;
            }
            if (is_dead_unix_stream(fd) && death_to_hide() && hide_dead_pmi(fd)) {
                fds[i].revents = 0;
                hidden++;
            }
        }
        ready -= hidden;
        if (ready > 0 || hidden == 0 || timeout == 0) {
            return ready;
        }
        /* only hidden events: wait again, as the caller asked (a finite timeout restarts: the
         * proxy polls with -1 or 0 only) */
    }
}
