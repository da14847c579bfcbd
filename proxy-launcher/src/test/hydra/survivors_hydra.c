/*
 * Native MPI job for studying failure hiding under a launcher (run by
 * hydra-survivors.sh): rank VICTIM (default 1; -1: nobody) SIGKILLs itself
 * after a first barrier (VICTIM_DELAY_MS later, if set; or, with
 * VICTIM_EXIT=N, exits with code N); the
 * others keep
 * exchanging nonblocking messages in a ring that skips the dead rank for
 * ROUNDS rounds (default 2000, 1 ms apart), then build a communicator of the survivors with
 * MPI_Comm_create_group, take a barrier on it and finalize. Every step is
 * printed, so a run shows how far the survivors got before the launcher
 * ended them. SKIP_FINALIZE=1: the survivors exit(0) instead of calling
 * MPI_Finalize.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int victim = getenv("VICTIM") ? atoi(getenv("VICTIM")) : 1;
    long rounds_wanted = getenv("ROUNDS") ? atol(getenv("ROUNDS")) : 2000;
    printf("rank %d pid %d started\n", rank, getpid());
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) {
        if (getenv("VICTIM_EXIT") != NULL) {
            exit(atoi(getenv("VICTIM_EXIT")));   /* the program's own verdict, not a failure */
        }
        if (getenv("VICTIM_DELAY_MS") != NULL) {
            usleep(1000 * atoi(getenv("VICTIM_DELAY_MS")));   /* die while the others are further on */
        }
        raise(SIGKILL);
    }
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (next == victim) next = (next + 1) % size;   /* VICTIM=-1: nobody dies */
    if (prev == victim) prev = (prev + size - 1) % size;
    long rounds = 0;
    int out = rank, in = -1, rc = MPI_SUCCESS;
    while (rounds < rounds_wanted && rc == MPI_SUCCESS) {
        MPI_Request reqs[2];
        MPI_Status sts[2];
        rc = MPI_Irecv(&in, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, &reqs[0]);
        if (rc == MPI_SUCCESS) rc = MPI_Isend(&out, 1, MPI_INT, next, 0, MPI_COMM_WORLD, &reqs[1]);
        int done = 0;
        while (rc == MPI_SUCCESS && !done) rc = MPI_Testall(2, reqs, &done, sts);
        rounds++;
        usleep(1000);
    }
    printf("rank %d ring: %ld rounds rc %d\n", rank, rounds, rc);
    fflush(stdout);
    MPI_Group world, alive;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int dead[1] = { victim };
    MPI_Group_excl(world, victim >= 0 && victim < size ? 1 : 0, dead, &alive);
    MPI_Comm survivors;
    rc = MPI_Comm_create_group(MPI_COMM_WORLD, alive, 7, &survivors);
    int ssize = -1;
    if (rc == MPI_SUCCESS) {
        MPI_Comm_size(survivors, &ssize);
        rc = MPI_Barrier(survivors);
    }
    printf("rank %d create_group + barrier rc %d size %d\n", rank, rc, ssize);
    fflush(stdout);
    if (getenv("SKIP_FINALIZE") != NULL) {
        printf("rank %d exits without MPI_Finalize\n", rank);
        fflush(stdout);
        return 0;
    }
    rc = MPI_Finalize();
    printf("rank %d finalized rc %d\n", rank, rc);
    fflush(stdout);
    return 0;
}
