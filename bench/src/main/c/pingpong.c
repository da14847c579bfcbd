/*
 * Native reference for the FTHP-J benchmark: ping-pong between ranks 0 and 1 (and, with more
 * ranks, between each further pair 2k, 2k+1 at the same time; rank 0 reports its pair).
 * Output (rank 0 only), one line per size:
 *   pingpong <bytes> <oneway_us> <GBps>
 * one-way time = round trip / 2; GB/s = bytes / one-way time (1 GB = 1e9 B).
 * Built by bench/run.sh with `mpicc -O2`.  Mirrors org.fthp.bench.PingPong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int SIZES[] = {8, 64, 512, 4096, 65536, 1048576, 4194304};
#define NSIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

/* Same iteration counts as PingPong.java: keep them in sync.  The warm-up
 * is long enough for the JVM's JIT to compile the Java loop. */
static int timed_iters(int bytes) {
    if (bytes <= 512) return 200000;
    if (bytes <= 4096) return 100000;
    if (bytes <= 65536) return 2000;
    if (bytes <= 1048576) return 200;
    return 50;
}
static int warmup_iters(int bytes) {
    if (bytes <= 4096) return 100000;
    if (bytes <= 65536) return 1000;
    if (bytes <= 1048576) return 50;
    return 20;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
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

    for (int s = 0; s < NSIZES; s++) {
        int n = SIZES[s];
        int warm = warmup_iters(n), iters = timed_iters(n);
        double t0 = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
            /* pairs (0,1), (2,3), ...: four ranks run two concurrent ping-pongs, the native
               baseline for a replicated pair (two logical ranks, four processes) */
            int peer = rank ^ 1;
            if (peer >= size) {
                continue;
            }
            if (rank % 2 == 0) {
                MPI_Send(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            double oneway = t / iters / 2.0;             /* seconds */
            printf("pingpong %d %.4f %.4f\n", n, oneway * 1e6, n / oneway / 1e9);
            fflush(stdout);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
