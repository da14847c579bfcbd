/*
 * Native MPI job for the proxy-library test: rank 1 kills itself after a
 * barrier; ranks 0 and 2 go on, exchange a message, build a communicator of
 * the survivors and finalize. Under the proxy library mpirun must let them.
 */
#include <mpi.h>
#include <stdio.h>
#include <signal.h>
#include <unistd.h>
int main(int c, char **v) {
    MPI_Init(&c, &v);
    int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (r == 1) { raise(SIGKILL); }
    sleep(1);
    int x = r, y = -1;
    if (r == 0) { MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD); MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
    if (r == 2) { MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); }
    printf("rank %d exchanged, got %d\n", r, y); fflush(stdout);
    MPI_Group wg, sg; MPI_Comm_group(MPI_COMM_WORLD, &wg); int ranks[2] = {0, 2};
    MPI_Group_incl(wg, 2, ranks, &sg); MPI_Comm sc;
    int rc = MPI_Comm_create_group(MPI_COMM_WORLD, sg, 7, &sc);
    int s = -1; if (rc == MPI_SUCCESS) MPI_Comm_size(sc, &s);
    printf("rank %d create_group rc %d size %d\n", r, rc, s); fflush(stdout);
    double t0 = MPI_Wtime();
    MPI_Finalize();
    printf("rank %d finalized after %.2f s\n", r, MPI_Wtime() - t0); fflush(stdout);
    return 0;
}
