/*
 * A receive shorter than the message, at sizes around the eager limits:
 * what the receive returns (its code, the status' MPI_ERROR, MPI_Get_count),
 * whether the library writes past the end of the receive buffer, and whether
 * the next message on the same pair still arrives intact.
 *
 * Open MPI 4.1.4's shared-memory transport writes a truncated message above
 * its 4 KiB eager limit past the end of the buffer; this program shows that
 * for any library it is built with. Two ranks; rank 0 sends, rank 1 receives
 * into half the message's size followed by a guard zone as long as the
 * message. Each size runs in three modes:
 *   posted      the receive (MPI_Irecv + MPI_Wait) is posted before the send
 *   unexpected  the message (or its rendezvous request) arrives first
 *   test        posted, completed by an MPI_Test loop (the binding's way)
 * Output, one line per case, from rank 1:
 *   size mode rc=CLASS error=CLASS|untouched source=N tag=N count=N|untouched filled=N past_end=N next=ok|BAD
 * (the status is filled with a sentinel first: "untouched" means the library
 * left that field alone; filled = bytes of the buffer holding the message;
 * past_end = bytes of the guard zone the library wrote.)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "errnames.h"

#define FILL_MESSAGE 0xA5
#define FILL_GUARD 0x5A
#define UNTOUCHED_ERROR (-12345)

enum mode { POSTED, UNEXPECTED, TEST };
static const char *mode_names[] = { "posted", "unexpected", "test" };

static void send_side(int size, enum mode mode, int tag) {
    unsigned char *msg = malloc(size);
    memset(msg, FILL_MESSAGE, size);
    int next = 424242;
    MPI_Request req;
    if (mode == UNEXPECTED) {
        MPI_Isend(msg, size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Isend(msg, size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(&next, 1, MPI_INT, 1, tag + 1, MPI_COMM_WORLD);
    free(msg);
}

static void receive_side(int size, enum mode mode, int tag) {
    int capacity = size / 2;
    size_t guard = (size_t) size;
    unsigned char *buf = malloc((size_t) capacity + guard);
    memset(buf, FILL_GUARD, (size_t) capacity + guard);
    MPI_Status st;
    memset(&st, 0x7F, sizeof st);
    st.MPI_ERROR = UNTOUCHED_ERROR;
    MPI_Status sentinel = st;
    MPI_Request req;
    int rc;
    if (mode == UNEXPECTED) {
        MPI_Barrier(MPI_COMM_WORLD);
        usleep(50 * 1000);   /* let the message (or its request to send) arrive first */
        MPI_Irecv(buf, capacity, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req);
        rc = MPI_Wait(&req, &st);
    } else {
        MPI_Irecv(buf, capacity, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        if (mode == TEST) {
            int done = 0;
            do {
                rc = MPI_Test(&req, &done, &st);
            } while (rc == MPI_SUCCESS && !done);
        } else {
            rc = MPI_Wait(&req, &st);
        }
    }
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    MPI_Status untouched = sentinel;
    int sentinel_count = -1;
    MPI_Get_count(&untouched, MPI_BYTE, &sentinel_count);
    size_t filled = 0;
    for (int i = 0; i < capacity; i++) {
        filled += buf[i] == FILL_MESSAGE;
    }
    size_t overwritten = 0;
    for (size_t i = 0; i < guard; i++) {
        overwritten += buf[capacity + i] != FILL_GUARD;
    }
    int next = 0;
    int next_rc = MPI_Recv(&next, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char status_error[48];
    if (st.MPI_ERROR == UNTOUCHED_ERROR) {
        snprintf(status_error, sizeof status_error, "untouched");
    } else {
        snprintf(status_error, sizeof status_error, "%s", fthp_class_name(fthp_class_of(st.MPI_ERROR)));
    }
    char count_text[24];
    if (count == sentinel_count) {
        snprintf(count_text, sizeof count_text, "untouched");
    } else {
        snprintf(count_text, sizeof count_text, "%d", count);
    }
    printf("%8d %-10s rc=%-16s error=%-16s source=%-11d tag=%-11d count=%-9s filled=%-8zu past_end=%-8zu next=%s\n",
           size, mode_names[mode], fthp_class_name(fthp_class_of(rc)), status_error, st.MPI_SOURCE, st.MPI_TAG,
           count_text, filled, overwritten, next_rc == MPI_SUCCESS && next == 424242 ? "ok" : "BAD");
    fflush(stdout);
    free(buf);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "truncate: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static const int sizes[] = { 64, 1000, 4000, 4096, 4200, 8192, 16384, 65536, 65600, 69632,
                                 131072, 262144, 1048576, 4194304 };
    int tag = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int m = POSTED; m <= TEST; m++) {
            if (rank == 0) {
                send_side(sizes[i], (enum mode) m, tag);
            } else {
                receive_side(sizes[i], (enum mode) m, tag);
            }
            tag += 2;
        }
    }
    MPI_Finalize();
    return 0;
}
