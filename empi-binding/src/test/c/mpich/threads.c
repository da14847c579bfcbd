/*
 * The thread level a library grants for each one asked for. MPI can be
 * initialised once per process, so the level asked for is the argument
 * (0..3 = SINGLE..MULTIPLE) and run.sh starts one job per level.
 * Prints "asked LEVEL provided LEVEL query LEVEL main 0|1" from rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char *level_name(int level) {
    if (level == MPI_THREAD_SINGLE) return "MPI_THREAD_SINGLE";
    if (level == MPI_THREAD_FUNNELED) return "MPI_THREAD_FUNNELED";
    if (level == MPI_THREAD_SERIALIZED) return "MPI_THREAD_SERIALIZED";
    if (level == MPI_THREAD_MULTIPLE) return "MPI_THREAD_MULTIPLE";
    return "?";
}

int main(int argc, char **argv) {
    static const int levels[] = { MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                  MPI_THREAD_MULTIPLE };
    int index = argc > 1 ? atoi(argv[1]) : 3;
    if (index < 0 || index > 3) {
        fprintf(stderr, "threads: level index 0..3\n");
        return 2;
    }
    int provided, queried, is_main, rank;
    MPI_Init_thread(&argc, &argv, levels[index], &provided);
    MPI_Query_thread(&queried);
    MPI_Is_thread_main(&is_main);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("asked %-21s provided %-21s query %-21s main %d\n", level_name(levels[index]),
               level_name(provided), level_name(queried), is_main);
    }
    MPI_Finalize();
    return 0;
}
