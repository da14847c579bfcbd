/*
 * The error class a library returns for common mistakes, under
 * MPI_ERRORS_RETURN, so the binding knows which checks it must make itself
 * (the facade checks arguments in Java first) and which codes it will see.
 * Two ranks; rank 0 prints "case: CLASS (code N)" lines.
 *
 * Cases that pass a made-up handle value are MPICH only: there a handle is an
 * integer the library validates; in Open MPI it is a pointer and would crash.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "errnames.h"

static int rank, size;

static void report(const char *what, int rc) {
    if (rank == 0) {
        printf("%-44s %-28s (code %d)\n", what, fthp_class_name(fthp_class_of(rc)), rc);
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int x = 1, y = 0, *tag_ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    if (rank == 0) {
        printf("MPI_TAG_UB attribute: %d\n", flag ? *tag_ub : -1);
    }
    MPI_Request req;
    int other = (rank + 1) % size;

    report("send to rank == size", MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
    report("send to rank -7", MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD));
    report("send with tag -5", MPI_Send(&x, 1, MPI_INT, other, -5, MPI_COMM_WORLD));
    report("send with tag TAG_UB+1", MPI_Send(&x, 1, MPI_INT, other, *tag_ub + 1, MPI_COMM_WORLD));
    report("send with ANY_TAG", MPI_Send(&x, 1, MPI_INT, other, MPI_ANY_TAG, MPI_COMM_WORLD));
    report("isend with count -1", MPI_Isend(&x, -1, MPI_INT, other, 0, MPI_COMM_WORLD, &req));
    report("send with MPI_DATATYPE_NULL", MPI_Send(&x, 1, MPI_DATATYPE_NULL, other, 0, MPI_COMM_WORLD));
    report("send on MPI_COMM_NULL", MPI_Send(&x, 1, MPI_INT, other, 0, MPI_COMM_NULL));
    report("send from NULL buffer, count 1", MPI_Send(NULL, 1, MPI_INT, other, 0, MPI_COMM_WORLD));
    report("recv from rank == size", MPI_Recv(&y, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    report("send to PROC_NULL (fine)", MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));

    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int two[2] = { 1, 2 };
    report("send with an uncommitted datatype", MPI_Send(two, 1, uncommitted, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    MPI_Type_free(&uncommitted);
    report("commit MPI_DATATYPE_NULL", MPI_Type_commit(&(MPI_Datatype) { MPI_DATATYPE_NULL }));

    report("bcast with root == size", MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD));
    report("allreduce with MPI_OP_NULL", MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
    report("allreduce, same buffer in and out", MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    report("wait on MPI_REQUEST_NULL (fine)", MPI_Wait(&(MPI_Request) { MPI_REQUEST_NULL }, MPI_STATUS_IGNORE));

    MPI_Group world, bad;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranks[1] = { size };
    report("group_incl with rank == size", MPI_Group_incl(world, 1, ranks, &bad));
    MPI_Comm c;
    report("comm_create_group with MPI_GROUP_NULL", MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 3, &c));
    report("comm_free(MPI_COMM_WORLD)", MPI_Comm_free(&(MPI_Comm) { MPI_COMM_WORLD }));
    int dims[1] = { size + 1 }, periods[1] = { 0 };
    MPI_Comm cart;
    report("cart_create with more dims than ranks", MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    report("split with negative color", MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c));

    /* truncation through the multiple-completion call the binding uses: MPI_Testall */
    MPI_Request reqs[2];
    MPI_Status sts[2];
    int big[4] = { 1, 2, 3, 4 }, small[2], ok = 0, done = 0;
    MPI_Irecv(small, 2, MPI_INT, other, 77, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&ok, 1, MPI_INT, other, 78, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send(big, 4, MPI_INT, other, 77, MPI_COMM_WORLD);
    MPI_Send(&x, 1, MPI_INT, other, 78, MPI_COMM_WORLD);
    int rc;
    do {
        rc = MPI_Testall(2, reqs, &done, sts);
    } while (rc == MPI_SUCCESS && !done);
    report("testall, one receive truncated", rc);
    report("  its status[0].MPI_ERROR", sts[0].MPI_ERROR);
    report("  its status[1].MPI_ERROR", sts[1].MPI_ERROR);
    if (rank == 0) {
        printf("  after it: request[1] %s, its message %s\n",
               reqs[1] == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL (completed)" : "still active",
               ok == x ? "delivered" : "not delivered");
    }

#ifdef MPICH_VERSION
    MPI_Comm dup, stale;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    stale = dup;
    MPI_Comm_free(&dup);
    report("send on a freed communicator (MPICH)", MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, stale));
    report("send with datatype 12345 (MPICH)", MPI_Send(&x, 1, (MPI_Datatype) 12345, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    report("wait on request 12345 (MPICH)", MPI_Wait(&(MPI_Request) { (MPI_Request) 12345 }, MPI_STATUS_IGNORE));
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
