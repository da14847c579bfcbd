/*
 * Native reference for the FTHP-J benchmark: ping-pong between ranks 0 and 1 (and, with more
 * ranks, between each further pair 2k, 2k+1 at the same time; rank 0 reports its pair).
 * Output (rank 0 only), one line per size:
 *   pingpong <bytes> <oneway_us> <GBps> <min_slice_us> <max_slice_us>
 * one-way time = round trip / 2 in the median of SLICES timed slices; GB/s = bytes / one-way
 * time (1 GB = 1e9 B).
 * Built by bench/run.sh with `mpicc -O2`.  Mirrors org.fthp.bench.PingPong.
 *
 * With `--nonblocking` every send and receive is MPI_Isend / MPI_Irecv completed by an MPI_Test
 * loop, the only way FTHP-J may call the native library on its data path (no blocking call that
 * could wait on a dead process): the floor of any implementation that keeps that rule.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int SIZES[] = {8, 64, 512, 4096, 65536, 1048576, 4194304};
#define NSIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

/* Timed slices per size (PingPong.SLICES); every timed_iters() is a multiple. */
#define SLICES 10

/* Same iteration counts as PingPong.java: keep them in sync.  The warm-up
 * is long enough for the JVM's JIT to compile the Java loop.  From 1 MiB up a
 * slice is at least 20 round trips and the warm-up 200: with fewer, a
 * replicated job's four JVMs on two cores are still compiling the
 * large-message path when timed, and a slice of a handful of round trips is
 * decided by one compiler's time slice. */
static int timed_iters(int bytes) {
    if (bytes <= 512) return 200000;
    if (bytes <= 4096) return 100000;
    if (bytes <= 65536) return 2000;
    if (bytes <= 1048576) return 1000;
    return 500;
}
static int warmup_iters(int bytes) {
    if (bytes <= 4096) return 100000;
    if (bytes <= 65536) return 1000;
    return 200;
}

static int nonblocking;

/* A send or receive as FTHP-J makes it: started, then tested until done. */
static void finish(MPI_Request *r) {
    int done = 0;
    while (!done) MPI_Test(r, &done, MPI_STATUS_IGNORE);
}

static void round_trips(char *buf, int n, int rank, int peer, int iters) {
    if (nonblocking) {
        MPI_Request r;
        for (int i = 0; i < iters; i++) {
            if (rank % 2 == 0) {
                MPI_Isend(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r); finish(&r);
                MPI_Irecv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r); finish(&r);
            } else {
                MPI_Irecv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r); finish(&r);
                MPI_Isend(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r); finish(&r);
            }
        }
        return;
    }
    for (int i = 0; i < iters; i++) {
        if (rank % 2 == 0) {
            MPI_Send(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    nonblocking = argc > 1 && strcmp(argv[1], "--nonblocking") == 0;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "pingpong needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int maxbytes = SIZES[NSIZES - 1];
    char *buf = malloc((size_t)maxbytes);
    memset(buf, 1, (size_t)maxbytes);

    /* The timed part runs as SLICES slices, each timed alone between barriers; the
     * result is the median slice. A slow phase of the machine (both ranks placed on
     * one core for a second, seen on this 2-core VM) then spoils a slice or two,
     * not the result; min and max slices are printed to show the spread. */
    double slice_s[SLICES];
    for (int s = 0; s < NSIZES; s++) {
        int n = SIZES[s];
        int warm = warmup_iters(n), per_slice = timed_iters(n) / SLICES;
        int peer = rank ^ 1;
        MPI_Barrier(MPI_COMM_WORLD);
        /* pairs (0,1), (2,3), ...: four ranks run two concurrent ping-pongs, the native
           baseline for a replicated pair (two logical ranks, four processes) */
        if (peer < size) round_trips(buf, n, rank, peer, warm);
        for (int k = 0; k < SLICES; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (peer < size) round_trips(buf, n, rank, peer, per_slice);
            slice_s[k] = (MPI_Wtime() - t0) / per_slice / 2.0;   /* one-way seconds */
        }
        if (rank == 0) {
            qsort(slice_s, SLICES, sizeof slice_s[0], by_value);
            double oneway = (slice_s[SLICES / 2 - 1] + slice_s[SLICES / 2]) / 2;
            printf("pingpong %d %.4f %.4f %.4f %.4f\n", n, oneway * 1e6, n / oneway / 1e9,
                   slice_s[0] * 1e6, slice_s[SLICES - 1] * 1e6);
            fflush(stdout);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
