/*
 * MPI_Testall over two receives when one fails (truncated) before the other's message has arrived: when does the
 * call report the failure, and what happens to the request still pending? Then the same pair completed the way the
 * binding does on MPICH: MPI_Request_get_status on each (it frees nothing) until every request is complete, and only
 * then MPI_Testall.
 *
 * Rank 1 posts a receive of 2 ints (tag 77) and one of 1 int (tag 78); rank 0 sends 4 ints on tag 77 at once and the
 * tag-78 int only once rank 1 has tested (a zero-byte message on tag 79 says when), so the second receive is surely
 * pending while the first has failed. Run with 2 ranks; prints one line per finding on rank 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "errnames.h"

#define errname(code) fthp_class_name(fthp_class_of(code))

static const char *request_state(MPI_Request r) {
    return r == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL" : "active";
}

/* One round: rank 1 completes the pair with `early` = plain MPI_Testall loop, or get_status first. */
static void round_trip(int rank, int early) {
    int big[4] = { 1, 2, 3, 4 }, x = 42;
    if (rank == 0) {
        MPI_Send(big, 4, MPI_INT, 1, 77, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_INT, 1, 79, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 78, MPI_COMM_WORLD);
        return;
    }
    MPI_Request reqs[2];
    MPI_Status sts[2];
    int small[2], got = 0, done = 0, rc = MPI_SUCCESS;
    MPI_Irecv(small, 2, MPI_INT, 0, 77, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&got, 1, MPI_INT, 0, 78, MPI_COMM_WORLD, &reqs[1]);
    /* let the truncated message land: its receive has failed before anyone tests */
    int landed = 0;
    while (!landed) {
        MPI_Request_get_status(reqs[0], &landed, MPI_STATUS_IGNORE);
    }
    const char *how = early ? "testall at once" : "get_status until all complete, then testall";
    if (early) {
        memset(sts, 0, sizeof sts);
        rc = MPI_Testall(2, reqs, &done, sts);
        printf("%s: first call returned %s, flag %d; status[0] %s, status[1] %s; request[0] %s, request[1] %s\n",
               how, errname(rc), done, errname(sts[0].MPI_ERROR), errname(sts[1].MPI_ERROR),
               request_state(reqs[0]), request_state(reqs[1]));
        MPI_Send(NULL, 0, MPI_INT, 0, 79, MPI_COMM_WORLD);
        if (reqs[1] != MPI_REQUEST_NULL) {
            /* the pending one completes later: tested again, the earlier failure is not reported again */
            do {
                rc = MPI_Testall(2, reqs, &done, sts);
            } while (rc == MPI_SUCCESS && !done);
            printf("%s: tested again until done: %s, message %s\n", how, errname(rc),
                   got == x ? "delivered" : "not delivered");
        } else {
            printf("%s: both requests done at the first report, message %s\n", how,
                   got == x ? "delivered" : "not delivered");
        }
        return;
    }
    int complete[2] = { 0, 0 }, calls = 0;
    MPI_Send(NULL, 0, MPI_INT, 0, 79, MPI_COMM_WORLD);
    int first_rc = MPI_SUCCESS;
    while (!(complete[0] && complete[1])) {
        for (int i = 0; i < 2; i++) {
            if (!complete[i]) {
                int r = MPI_Request_get_status(reqs[i], &complete[i], MPI_STATUS_IGNORE);
                if (r != MPI_SUCCESS && first_rc == MPI_SUCCESS) {
                    first_rc = r;
                }
            }
        }
        calls++;
    }
    rc = MPI_Testall(2, reqs, &done, sts);
    printf("%s: get_status returned %s (first non-success), then testall %s, flag %d; status[0] %s, "
           "status[1] %s; request[0] %s, request[1] %s; message %s\n", how, errname(first_rc), errname(rc), done,
           errname(sts[0].MPI_ERROR), errname(sts[1].MPI_ERROR), request_state(reqs[0]), request_state(reqs[1]),
           got == x ? "delivered" : "not delivered");
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) {
            fprintf(stderr, "testall: run with 2 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    round_trip(rank, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    round_trip(rank, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
