/*
 * Native MPI job for the emulated-hosts tests: every rank names the host it
 * runs on (MPI_Get_processor_name: the emulated host's own hostname), passes
 * a token round a ring, and takes part in an allreduce. With an argument K
 * rank K SIGKILLs itself after the first barrier and the survivors go on
 * among themselves (for the proxy library preloaded into a remote orted).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, len;
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    int victim = argc > 1 ? atoi(argv[1]) : -1;
    if (victim >= 0) {
        /* the survivors' calls must not abort over the dead rank */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
    printf("rank %d of %d on %s pid %ld\n", rank, size, host, (long) getpid());
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Comm live = MPI_COMM_WORLD;
    if (victim >= 0) {
        if (rank == victim) {
            raise(SIGKILL);
        }
        sleep(1);   /* the death reaches its orted before the survivors go on */
        MPI_Group world, survivors;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_excl(world, 1, &victim, &survivors);
        int rc = MPI_Comm_create_group(MPI_COMM_WORLD, survivors, 7, &live);
        if (rc != MPI_SUCCESS) {
            printf("rank %d create_group failed rc %d\n", rank, rc);
            fflush(stdout);
            return 3;
        }
    }
    int r, n;
    MPI_Comm_rank(live, &r);
    MPI_Comm_size(live, &n);
    int token = -1;
    if (r == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, 1 % n, 0, live);
        MPI_Recv(&token, 1, MPI_INT, n - 1, 0, live, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, r - 1, 0, live, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_INT, (r + 1) % n, 0, live);
    }
    long mine = rank, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, live);
    if (r == 0) {
        printf("ring token %d over %d ranks, sum of world ranks %ld\n", token, n, sum);
    }
    printf("rank %d finalizing\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
