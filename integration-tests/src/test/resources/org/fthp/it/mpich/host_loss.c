/*
 * A native MPI job for a lost host under hydra (MpichTest, and the study in docs/notes/mpich.md §9). Every rank
 * splits MPI_COMM_WORLD by host and prints "rank R on HOST pid P split"; the ranks on SURVIVOR_HOST (default h0)
 * then pass a token around their own ring ROUNDS times (default 2000, 1 ms apart), print "rank R ring done after N
 * rounds" and leave without MPI_Finalize (as the facade's engine does once a peer has died: MPICH's Finalize would
 * wait for the dead); every other rank waits to be killed with its host.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char host[256];
    gethostname(host, sizeof host);
    const char *keep = getenv("SURVIVOR_HOST") != NULL ? getenv("SURVIVOR_HOST") : "h0";
    int survivor = strcmp(host, keep) == 0;
    MPI_Comm ring;
    MPI_Comm_split(MPI_COMM_WORLD, survivor ? 0 : 1, rank, &ring);   /* the last call with every host */
    printf("rank %d on %s pid %d split\n", rank, host, (int) getpid());
    fflush(stdout);
    if (!survivor) {
        for (;;) {
            pause();
        }
    }
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    int me, n;
    MPI_Comm_rank(ring, &me);
    MPI_Comm_size(ring, &n);
    long rounds_wanted = getenv("ROUNDS") != NULL ? atol(getenv("ROUNDS")) : 2000;
    long rounds = 0;
    int token = 0, rc = MPI_SUCCESS;
    while (rounds < rounds_wanted && rc == MPI_SUCCESS) {
        int in = -1;
        rc = MPI_Sendrecv(&token, 1, MPI_INT, (me + 1) % n, 0, &in, 1, MPI_INT, (me + n - 1) % n, 0, ring,
                MPI_STATUS_IGNORE);
        token = in + 1;
        rounds++;
        usleep(1000);
    }
    printf("rank %d ring done after %ld rounds rc %d\n", rank, rounds, rc);
    fflush(stdout);
    return 0;
}
