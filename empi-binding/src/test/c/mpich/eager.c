/*
 * The eager limit of a pair of ranks on one host: the largest message whose
 * MPI_Isend completes while the receiver has not yet posted its receive.
 * Above it the library holds the send until the receive matches (rendezvous).
 * Rank 0 sends and polls MPI_Test for WINDOW_MS; rank 1 joins a barrier only
 * after that and then receives. The sizes double from 256 B to 8 MiB, then a
 * bisection finds the exact limit between the last eager and the first
 * rendezvous size. Prints every probe and then "eager limit: N bytes".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_MS 30.0
#define MAX_BYTES (8 << 20)

static int rank;
static unsigned char *buf;

/* 1 if a send of `bytes` completed before the receive was posted. */
static int completes_eagerly(int bytes) {
    int done = 0;
    if (rank == 0) {
        MPI_Request req;
        MPI_Isend(buf, bytes, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &req);
        double until = MPI_Wtime() + WINDOW_MS / 1000.0;
        while (!done && MPI_Wtime() < until) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (!done) {
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%9d bytes: %s\n", bytes, done ? "eager" : "rendezvous");
        fflush(stdout);
    }
    return done;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "eager: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    buf = malloc(MAX_BYTES);
    memset(buf, 1, MAX_BYTES);
    int eager = 0, rendezvous = 0;
    for (int bytes = 256; bytes <= MAX_BYTES; bytes *= 2) {
        if (completes_eagerly(bytes)) {
            eager = bytes;
        } else {
            rendezvous = bytes;
            break;
        }
    }
    if (rendezvous == 0) {
        if (rank == 0) printf("eager limit: above %d bytes\n", MAX_BYTES);
    } else {
        while (rendezvous - eager > 1) {
            int mid = eager + (rendezvous - eager) / 2;
            if (completes_eagerly(mid)) eager = mid; else rendezvous = mid;
        }
        if (rank == 0) printf("eager limit: %d bytes\n", eager);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
