/*
 * fthp_proxy_hydra: failure hiding for MPICH's launcher (hydra, MPICH 4.0.2),
 * the counterpart of fthp_proxy.c (Open MPI's mpirun). Built by Maven beside
 * it and preloaded by fthp-run --mpi mpich when coordinators decide about
 * deaths (NativeMpi); docs/notes/mpich.md says what it does.
 * The survivors of a death leave without the native MPI_Finalize on MPICH
 * (Empi.finalizeSurvivesDeadPeers), an end this library hides like a death.
 *
 * Preloaded (LD_PRELOAD) into mpiexec.hydra, whose environment its local
 * hydra_pmi_proxy inherits (scripts/mpich-hydra-rsh.sh preloads it into each
 * remote one); it acts mostly inside hydra_pmi_proxy, the process that forks
 * the ranks, reaps them and kills them (in mpiexec itself only for a lost
 * host, below). Two things there
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
 *   and the upstream connection to mpiexec is TCP, both left alone; the local
 *   proxy's upstream is a socketpair, HYDI_CONTROL_FD, left alone too: until
 *   this was seen, a local proxy outlived mpiexec with its ranks) gets a
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
 * FTHP_PROXY_REPORT_EXITS=1 (several hosts, as for fthp_proxy.c): a rank
 * that exits with a non-zero code is also reported, and passed on as it is.
 * One that fails before it registers (a JVM that cannot start) is then a pid
 * no coordinator owns, and the coordinators end the job (exit 4) instead of
 * MPICH ending it with a code of its own (seen: 15, another rank's MPI_Init
 * failing after the PMI peer was gone).
 *
 * In mpiexec.hydra itself, with FTHP_HYDRA_LOST_HOSTS set (fthp-run on
 * several hosts), one more thing: a lost host. mpiexec holds one TCP control
 * connection per remote hydra_pmi_proxy (the local proxy's is an AF_UNIX
 * socketpair) and polls it; when it reads the end of that stream
 * (pmiserv_cb.c, control_cb: HYDU_ASSERT(!closed)) it fails and exits, and the
 * surviving proxies kill their ranks on losing mpiexec. So poll() here also
 * hides a TCP stream socket that polls readable at end of stream (or reset):
 * a stand-in socketpair end goes in its place (dup2), its event is removed,
 * and the peer's address is held, pending. The coordinators decide whether
 * that host is lost: fthp-run lists every address of a host they lost in
 * the file FTHP_HYDRA_LOST_HOSTS names (one address per line), which this
 * library reads while anything is pending (poll then waits in slices of at
 * most 100 ms). Confirmed: hidden for good; mpiexec serves the other proxies
 * and waits for the lost one's exit status for ever, and fthp-run ends it
 * once every process has finished or failed (as Open MPI's recovery mode).
 * Not confirmed within FTHP_HYDRA_CONFIRM_MS (default 10000 ms): released,
 * by closing the other end of the stand-in, so mpiexec reads the end as it
 * would have and ends the job as before (a proxy that died on a host whose
 * coordinator lives must not leave mpiexec waiting for ever). A connection
 * that still has data to read is never hidden: an exit status or a last
 * message is read first, and a proxy that ends normally is deregistered by
 * mpiexec before its end is read.
 *
 * In any other process (mpiexec.hydra without that variable, a script or
 * timeout in front of it, the ranks, which get LD_PRELOAD from mpiexec's
 * environment through hydra's environment forwarding) the interposed calls
 * pass straight through. The proxy and the ranks (children of the proxy)
 * unset LD_PRELOAD as they load; everything in front of the proxy keeps it
 * for the proxy.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
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
static int launcher;              /* 1 only inside mpiexec.hydra with FTHP_HYDRA_LOST_HOSTS set */
static int report_exits;          /* FTHP_PROXY_REPORT_EXITS=1: non-zero exits are reported too */
static int upstream_fd = -1;      /* the local proxy's control connection to mpiexec (HYDI_CONTROL_FD) */

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

/* ---- mpiexec.hydra: the control connections of remote proxies (a lost host) ---- */

#define MAX_LINKS 256
#define SLICE_MS 100

/* What this library knows of a descriptor mpiexec polls: learnt while it is connected, since a reset
 * connection no longer has a peer to ask for. */
struct peer {
    ino_t ino;              /* the socket's inode: mpiexec may close a number and reuse it */
    int tcp;                /* 1: a connected TCP stream socket (a remote proxy's control connection) */
    int family;             /* AF_INET or AF_INET6; a v4-mapped peer is kept as AF_INET */
    unsigned char addr[16];
};
static struct peer peers[MAX_FD];

/* A remote proxy's connection whose end mpiexec has not been shown. */
struct lost_link {
    int fd;                 /* mpiexec's number for it, now the stand-in */
    ino_t stand_in;         /* the stand-in's inode */
    int other_end;          /* this library's end of the stand-in; -1 once released or dropped */
    int confirmed;
    long long deadline_ms;  /* released if not confirmed by then */
    struct peer peer;
    char shown[INET6_ADDRSTRLEN];
};
static struct lost_link links[MAX_LINKS];
static int link_count;
static char lost_hosts_path[4096];   /* FTHP_HYDRA_LOST_HOSTS */
static long confirm_ms = 10000;      /* FTHP_HYDRA_CONFIRM_MS */

static void launcher_init(void) {
    const char *file = getenv("FTHP_HYDRA_LOST_HOSTS");
    if (file == NULL || file[0] == '\0' || strlen(file) >= sizeof lost_hosts_path) {
        return;
    }
    strcpy(lost_hosts_path, file);
    const char *wait = getenv("FTHP_HYDRA_CONFIRM_MS");
    if (wait != NULL && atol(wait) > 0) {
        confirm_ms = atol(wait);
    }
    launcher = 1;
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* An address as family and 4 or 16 bytes; an IPv4-mapped IPv6 address becomes the IPv4 one. */
static void set_address(struct peer *p, int family, const void *bytes) {
    memset(p->addr, 0, sizeof p->addr);
    if (family == AF_INET6 && IN6_IS_ADDR_V4MAPPED((const struct in6_addr *) bytes)) {
        p->family = AF_INET;
        memcpy(p->addr, (const unsigned char *) bytes + 12, 4);
    } else {
        p->family = family;
        memcpy(p->addr, bytes, family == AF_INET ? 4 : 16);
    }
}

/* Looks at fd as it is now: a connected TCP stream socket, and its peer. */
static void learn_peer(int fd, struct peer *p, ino_t ino) {
    p->ino = ino;
    p->tcp = 0;
    int domain = 0, type = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || (domain != AF_INET && domain != AF_INET6)) {
        return;
    }
    len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) {
        return;
    }
    struct sockaddr_storage addr;
    socklen_t alen = sizeof addr;
    if (getpeername(fd, (struct sockaddr *) &addr, &alen) != 0) {
        return;   /* not connected: a listening socket */
    }
    if (addr.ss_family == AF_INET) {
        set_address(p, AF_INET, &((struct sockaddr_in *) &addr)->sin_addr);
    } else if (addr.ss_family == AF_INET6) {
        set_address(p, AF_INET6, &((struct sockaddr_in6 *) &addr)->sin6_addr);
    } else {
        return;
    }
    p->tcp = 1;
}

/* The peer of every socket about to be polled that this library has not seen connected yet. */
static void note_peers(const struct pollfd *fds, nfds_t nfds) {
    for (nfds_t i = 0; i < nfds; i++) {
        int fd = fds[i].fd;
        struct stat st;
        if (fd < 0 || fd >= MAX_FD || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) {
            continue;
        }
        if (peers[fd].ino != st.st_ino || !peers[fd].tcp) {
            learn_peer(fd, &peers[fd], st.st_ino);
        }
    }
}

/* 1 if fd is a remote proxy's TCP connection that has ended (end of stream, or reset), nothing left to read. */
static int is_ended_tcp(int fd) {
    struct stat st;
    if (fd < 0 || fd >= MAX_FD || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) {
        return 0;
    }
    if (peers[fd].ino != st.st_ino) {
        learn_peer(fd, &peers[fd], st.st_ino);   /* first seen ended: only a closed (not reset) one has a peer */
    }
    if (!peers[fd].tcp) {
        return 0;
    }
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && (errno == ECONNRESET || errno == ETIMEDOUT || errno == EHOSTUNREACH
            || errno == ENETUNREACH || errno == EPIPE || errno == ENOTCONN));
}

/*
 * Puts one end of a fresh socketpair in place of fd (the same number, so the
 * caller's tables still name it) and returns the other end, or -1 if that
 * failed (fd is then untouched).
 */
static int put_stand_in(int fd) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, pair) != 0) {
        return -1;
    }
    if (dup2(pair[0], fd) < 0) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    close(pair[0]);
    return pair[1];
}

/* Puts a stand-in in place of an ended proxy connection and holds it, pending. 0 if that failed. */
static int hide_link(int fd) {
    int other_end;
    if (link_count >= MAX_LINKS || (other_end = put_stand_in(fd)) < 0) {
        return 0;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    struct stat st;
    fstat(fd, &st);
    struct lost_link *l = &links[link_count++];
    l->fd = fd;
    l->stand_in = st.st_ino;
    l->other_end = other_end;
    l->confirmed = 0;
    l->deadline_ms = now_ms() + confirm_ms;
    l->peer = peers[fd];
    peers[fd].ino = st.st_ino;   /* the stand-in is not a TCP connection */
    peers[fd].tcp = 0;
    inet_ntop(l->peer.family, l->peer.addr, l->shown, sizeof l->shown);
    return 1;
}

/* Whether the lost-hosts file lists the address of p (one address per line, IPv4 or IPv6). */
static int listed_lost(const struct peer *p) {
    int fd = open(lost_hosts_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    char text[65536];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof text - 1 && (n = real_read(fd, text + len, sizeof text - 1 - len)) > 0) {
        len += (size_t) n;
    }
    close(fd);
    text[len] = '\0';
    int found = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line != NULL && !found; line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, " \t\r")] = '\0';
        unsigned char bytes[16];
        struct peer listed;
        if (inet_pton(AF_INET, line, bytes) == 1) {
            set_address(&listed, AF_INET, bytes);
        } else if (inet_pton(AF_INET6, line, bytes) == 1) {
            set_address(&listed, AF_INET6, bytes);
        } else {
            continue;
        }
        found = listed.family == p->family && memcmp(listed.addr, p->addr, sizeof listed.addr) == 0;
    }
    return found;
}

/*
 * Every held connection: drained of what mpiexec wrote to it, dropped if mpiexec has closed its number,
 * confirmed if the coordinators lost its host, released if not in time. Returns 1 while one waits for
 * its verdict.
 */
static int review_links(void) {
    int waiting = 0;
    char sink[4096];
    for (int i = 0; i < link_count; i++) {
        struct lost_link *l = &links[i];
        if (l->other_end < 0) {
            continue;
        }
        struct stat st;
        if (fstat(l->fd, &st) != 0 || st.st_ino != l->stand_in) {
            close(l->other_end);   /* mpiexec closed it (its cleanup): nothing left to hold */
            l->other_end = -1;
            continue;
        }
        while (real_read(l->other_end, sink, sizeof sink) > 0) {
        }
        if (l->confirmed) {
            continue;
        }
        if (listed_lost(&l->peer)) {
            l->confirmed = 1;
            fprintf(stderr, "fthp_proxy_hydra: the proxy on %s is gone with its host (the coordinators lost it):"
                    " mpiexec goes on without it\n", l->shown);
        } else if (now_ms() >= l->deadline_ms) {
            fprintf(stderr, "fthp_proxy_hydra: the proxy on %s ended and the coordinators did not lose its host"
                    " within %ld ms: mpiexec is told\n", l->shown, confirm_ms);
            close(l->other_end);   /* the stand-in now reads as the end of the stream */
            l->other_end = -1;
        } else {
            waiting = 1;
        }
    }
    return waiting;
}

/*
 * mpiexec's poll: an ended remote proxy connection is hidden (see hide_link) and the call goes on as the
 * caller asked; while one waits for its verdict, the real poll runs in slices of SLICE_MS.
 */
static int launcher_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    long long start = now_ms();
    for (;;) {
        int waiting = review_links();
        note_peers(fds, nfds);
        int slice = timeout;
        if (waiting) {
            slice = SLICE_MS;
            if (timeout >= 0) {
                long long left = timeout - (now_ms() - start);
                slice = left < 0 ? 0 : left < SLICE_MS ? (int) left : SLICE_MS;
            }
        }
        int ready = real_poll(fds, nfds, slice);
        if (ready < 0) {
            return ready;
        }
        int hidden = 0;
        for (nfds_t i = 0; i < nfds; i++) {
            if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR | POLLRDHUP)) != 0 && is_ended_tcp(fds[i].fd)
                    && hide_link(fds[i].fd)) {
                fds[i].revents = 0;
                hidden++;
            }
        }
        ready -= hidden;
        if (ready > 0 || timeout == 0 || (timeout > 0 && now_ms() - start >= timeout)) {
            return ready;
        }
        /* nothing for the caller yet (only hidden events, or a slice ended): wait on */
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
    const char *self = exe_name("self", path, sizeof path);
    if (strcmp(self, "mpiexec.hydra") == 0) {
        launcher_init();
        return;
    }
    if (strcmp(self, "hydra_pmi_proxy") != 0) {
        return;
    }
    unsetenv("LD_PRELOAD");
    const char *report = getenv("FTHP_PROXY_REPORT");
    if (report != NULL && strlen(report) < sizeof report_paths) {
        strcpy(report_paths, report);
    }
    const char *exits = getenv("FTHP_PROXY_REPORT_EXITS");
    report_exits = exits != NULL && strcmp(exits, "1") == 0;
    /* The proxy mpiexec forks on its own host talks to it over an AF_UNIX socketpair too: its end is
     * mpiexec's end, never a rank's, and the proxy must see it (it then kills its ranks). */
    const char *control = getenv("HYDI_CONTROL_FD");
    if (control != NULL && control[0] != '\0') {
        upstream_fd = atoi(control);
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
        if (r > 0 && report_exits && WIFEXITED(st) && WEXITSTATUS(st) != 0) {
            report(r);   /* passed on too: the coordinators end the job if no one owns the pid */
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
    int peer;
    if (fd >= MAX_FD || (peer = put_stand_in(fd)) < 0) {
        return 0;
    }
    stand_in[fd] = peer + 1;
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
    if (launcher) {
        return launcher_poll(fds, nfds, timeout);
    }
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
            if (fd < 0 || fd >= MAX_FD || stand_in[fd] != 0 || fd == upstream_fd
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
