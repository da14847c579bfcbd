/*
 * Stands in for the MPI library (FTHP_EMPI_LIB) and forwards everything to MPICH but MPI_Finalize: in the native
 * rank named by FTHP_TEST_FINALIZE_VICTIM (PMI_RANK, set by hydra) MPI_Finalize SIGKILLs the process half a second
 * in, after the facade's FinalizeBarrier, while the others are already in theirs. MPICH's own Finalize would wait
 * forever on that dead peer (docs/notes/mpich.md §3). Used by MpichTest.
 */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int MPI_Finalize(void) {
    const char *victim = getenv("FTHP_TEST_FINALIZE_VICTIM");
    const char *rank = getenv("PMI_RANK");
    if (victim != NULL && rank != NULL && atoi(victim) == atoi(rank)) {
        usleep(500000);
        kill(getpid(), SIGKILL);
    }
    return PMPI_Finalize();
}
