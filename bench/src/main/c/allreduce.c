/*
 * Native reference for the FTHP-J benchmark: MPI_Allreduce(MPI_DOUBLE, MPI_SUM)
 * on all ranks of MPI_COMM_WORLD.  Output (rank 0 only):
 *   allreduce <count> <us_per_call> <min_slice_us> <max_slice_us>
 * The time: per timed slice the maximum over ranks of the mean time per call,
 * then the median slice.
 * Built by bench/run.sh with `mpicc -O2`.  Mirrors org.fthp.bench.AllReduce.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const int COUNTS[] = {1, 1024};
#define NCOUNTS ((int)(sizeof COUNTS / sizeof COUNTS[0]))

/* Timed slices per count (AllReduce.SLICES); every timed_iters() is a multiple. */
#define SLICES 10

/* Same iteration counts as AllReduce.java: keep them in sync. */
static int timed_iters(int count) { return count <= 1 ? 100000 : 20000; }
static int warmup_iters(int count) { return count <= 1 ? 20000 : 5000; }

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int maxc = COUNTS[NCOUNTS - 1];
    double *in = malloc(sizeof(double) * (size_t)maxc);
    double *out = malloc(sizeof(double) * (size_t)maxc);
    for (int i = 0; i < maxc; i++) in[i] = rank + i;

    /* SLICES timed slices between barriers, as pingpong.c: per slice the slowest rank's
     * mean, then the median slice (min and max slices show the spread). */
    double mine[SLICES], slowest[SLICES];
    for (int c = 0; c < NCOUNTS; c++) {
        int n = COUNTS[c];
        int warm = warmup_iters(n), per_slice = timed_iters(n) / SLICES;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warm; i++) MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (int k = 0; k < SLICES; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < per_slice; i++) MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            mine[k] = (MPI_Wtime() - t0) / per_slice * 1e6;
        }
        MPI_Reduce(mine, slowest, SLICES, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            qsort(slowest, SLICES, sizeof slowest[0], by_value);
            printf("allreduce %d %.4f %.4f %.4f\n", n, (slowest[SLICES / 2 - 1] + slowest[SLICES / 2]) / 2,
                   slowest[0], slowest[SLICES - 1]);
            fflush(stdout);
        }
    }
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
