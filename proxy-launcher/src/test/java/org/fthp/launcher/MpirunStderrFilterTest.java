package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

class MpirunStderrFilterTest {

    private static final String DASHES = "-".repeat(74) + "\n";
    private static final String OPEN_MPI_EXIT_NOTICE = DASHES
            + "Primary job  terminated normally, but 1 process returned\n"
            + "a non-zero exit code. Per user-direction, the job has been aborted.\n"
            + DASHES + DASHES
            + "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
            + "the job to be terminated. The first process to do so was:\n\n"
            + "  Process name: [[24450,1],1]\n  Exit code:    3\n" + DASHES;
    private static final String MPICH_NOTICE = "=".repeat(83) + "\n"
            + "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 1 RUNNING AT vm\n"
            + "=   EXIT CODE: 3\n" + "=".repeat(83) + "\n";

    private static String filtered(String stderr, BooleanSupplier explained) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MpirunStderrFilter.copy(new ByteArrayInputStream(stderr.getBytes(StandardCharsets.UTF_8)), out, explained, 50);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anExplainedEndIsNotToldAgain() {
        String rank = "Exception in thread \"main\" java.lang.IllegalStateException: fails\n";
        assertEquals(rank, filtered(rank + OPEN_MPI_EXIT_NOTICE, () -> true));
        assertEquals(rank, filtered(rank + MPICH_NOTICE, () -> true));
        String aggregated = "[vm:28380] 1 more process has sent help message help-mpi-api.txt / mpi-abort\n"
                + "[vm:28380] Set MCA parameter \"orte_base_help_aggregate\" to 0 to see all help / error messages\n";
        assertEquals(rank, filtered(rank + OPEN_MPI_EXIT_NOTICE + aggregated, () -> true));
        assertEquals(OPEN_MPI_EXIT_NOTICE + aggregated, filtered(OPEN_MPI_EXIT_NOTICE + aggregated, () -> false));
    }

    @Test
    void aRanksOwnExplanationCounts() {
        String rank = "fthp: rank 1 called System.exit(3) before MPI_Finalize; the job ends (exit code 3)\n";
        assertEquals(rank, filtered(rank + OPEN_MPI_EXIT_NOTICE, () -> false));
    }

    @Test
    void anUnexplainedEndKeepsMpirunsNotice() {
        assertEquals(OPEN_MPI_EXIT_NOTICE, filtered(OPEN_MPI_EXIT_NOTICE, () -> false));
    }

    @Test
    void otherNoticesAndOutputPassUnchanged() {
        String signal = DASHES + "mpirun noticed that process rank 3 with PID 0 on node h1 exited on signal 9 (Killed).\n"
                + DASHES;
        String table = "ünïcode line\n" + "-".repeat(30) + "\nrow 1\nrow 2\n";   // a frame that never closes
        String partial = "no line break at the end";
        String all = signal + table + partial;
        assertEquals(all, filtered(all, () -> true));
    }
}
