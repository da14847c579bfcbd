/*
 * Rooted nonblocking collectives on an intercommunicator, the root being
 * each rank of the high half in turn (the facade uses only nonblocking
 * native collectives). MPICH 4.0.2's MPI_Ibcast on an intercommunicator
 * delivers nothing when the root is not rank 0 of its group (its flat
 * schedule roots the receiving group's own broadcast at the remote root's
 * rank instead of 0); this checks Ibcast, Ireduce, Igather and Iscatter the
 * same way and prints one line per collective and root: "ok" or what the
 * low half got. The world splits in a low and a high half.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int low_size = size / 2, high_size = size - low_size, low = rank < low_size;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : 1, rank, &local);
    int lr;
    MPI_Comm_rank(local, &lr);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? low_size : 0, 99, &inter);
    for (int root = 0; root < high_size; root++) {
        /* the high half's rank `root` is the root; the low half receives (bcast, scatter) or sends (reduce, gather) */
        int root_arg = low ? root : (lr == root ? MPI_ROOT : MPI_PROC_NULL);
        int is_root = !low && lr == root;
        MPI_Request r;
        int bad, any_bad;

        int b = is_root ? 1000 + root : -1;
        MPI_Ibcast(&b, 1, MPI_INT, root_arg, inter, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        bad = low && b != 1000 + root;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) printf("Ibcast   root %d: %s\n", root, any_bad ? "WRONG (low half kept its own buffer)" : "ok");

        int mine = lr + 1, sum = -1;
        MPI_Ireduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root_arg, inter, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        bad = is_root && sum != low_size * (low_size + 1) / 2;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) printf("Ireduce  root %d: %s\n", root, any_bad ? "WRONG" : "ok");

        int gathered[64] = {0};
        MPI_Igather(&mine, 1, MPI_INT, gathered, 1, MPI_INT, root_arg, inter, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        bad = 0;
        for (int i = 0; is_root && i < low_size; i++) bad |= gathered[i] != i + 1;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) printf("Igather  root %d: %s\n", root, any_bad ? "WRONG" : "ok");

        int parts[64], part = -1;
        for (int i = 0; i < 64; i++) parts[i] = 500 + i;
        MPI_Iscatter(parts, 1, MPI_INT, &part, 1, MPI_INT, root_arg, inter, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        bad = low && part != 500 + lr;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) printf("Iscatter root %d: %s\n", root, any_bad ? "WRONG" : "ok");
    }
    MPI_Finalize();
    return 0;
}
