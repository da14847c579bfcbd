/*
 * Native reference for the FTHP-J benchmark: MPI_Allreduce(MPI_DOUBLE, MPI_SUM)
 * on all ranks of MPI_COMM_WORLD.  Output (rank 0 only):
 *   allreduce <count> <us_per_call>
 * The time is the maximum over ranks of the mean time per call.
 * Built by bench/run.sh with `mpicc -O2`.  Mirrors org.fthp.bench.AllReduce.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const int COUNTS[] = {1, 1024};
#define NCOUNTS ((int)(sizeof COUNTS / sizeof COUNTS[0]))

/* Same iteration counts as AllReduce.java: keep them in sync. */
static int timed_iters(int count) { return count <= 1 ? 100000 : 20000; }
static int warmup_iters(int count) { return count <= 1 ? 20000 : 5000; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int maxc = COUNTS[NCOUNTS - 1];
    double *in = malloc(sizeof(double) * (size_t)maxc);
    double *out = malloc(sizeof(double) * (size_t)maxc);
    for (int i = 0; i < maxc; i++) in[i] = rank + i;

    for (int c = 0; c < NCOUNTS; c++) {
        int n = COUNTS[c];
        int warm = warmup_iters(n), iters = timed_iters(n);
        double t0 = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
            MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double us = (MPI_Wtime() - t0) / iters * 1e6, maxus;
        MPI_Reduce(&us, &maxus, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) { printf("allreduce %d %.4f\n", n, maxus); fflush(stdout); }
    }
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
