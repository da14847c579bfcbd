package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MpiChoiceTest {

    @TempDir
    Path dir;

    @Test
    void takesTheOptionOffBeforeTheSeparatorOnly() throws LaunchException {
        MpiChoice c = MpiChoice.extract(List.of("-np", "2", "--mpi", "mpich", "--", "Main", "--mpi", "x"));
        assertEquals(Optional.of(NativeMpi.MPICH), c.explicit());
        assertEquals(List.of("-np", "2", "--", "Main", "--mpi", "x"), c.rest());
        assertEquals(Optional.empty(), MpiChoice.extract(List.of("-np", "2", "--", "Main")).explicit());
    }

    @Test
    void refusesUnknownMissingAndContradictoryValues() {
        LaunchException unknown = assertThrows(LaunchException.class,
                () -> MpiChoice.extract(List.of("--mpi", "mvapich", "-np", "2")));
        assertEquals(LaunchException.USAGE, unknown.exitCode());
        assertTrue(unknown.getMessage().contains("openmpi and mpich"), unknown.getMessage());
        assertThrows(LaunchException.class, () -> MpiChoice.extract(List.of("-np", "2", "--mpi", "--", "Main")));
        assertThrows(LaunchException.class,
                () -> MpiChoice.extract(List.of("--mpi", "mpich", "--mpi", "openmpi", "-np", "2")));
    }

    @Test
    void anAbiDescriptionOfTheOtherLibraryIsRefusedWhenOneWasAskedFor() throws LaunchException {
        MpiChoice mpich = MpiChoice.extract(List.of("--mpi", "mpich"));
        LaunchException e = assertThrows(LaunchException.class, () -> mpich.resolve(Map.of(), "openmpi"));
        assertEquals(LaunchException.ENVIRONMENT, e.exitCode());
        assertEquals(NativeMpi.MPICH, mpich.resolve(Map.of(), "mpich"));
        assertEquals(NativeMpi.MPICH, mpich.resolve(Map.of(), "unknown"), "an unknown library: as asked");
    }

    @Test
    void withoutTheOptionTheAbiDescriptionDecidesThenWhatIsInstalled() throws Exception {
        MpiChoice none = MpiChoice.extract(List.of("-np", "1"));
        assertEquals(NativeMpi.MPICH, none.resolve(Map.of("PATH", ""), "mpich"));
        assertEquals(NativeMpi.OPEN_MPI, none.resolve(Map.of("PATH", ""), "openmpi"));
        assertEquals(NativeMpi.OPEN_MPI, none.resolve(Map.of("PATH", ""), "unknown"), "nothing installed: Open MPI");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        executable(bin.resolve("mpiexec.hydra"));
        Map<String, String> mpichOnly = Map.of("PATH", bin.toString());
        assertEquals(NativeMpi.MPICH, none.resolve(mpichOnly, "unknown"));
        assertEquals(NativeMpi.MPICH, none.toProbe(mpichOnly));
        executable(bin.resolve("ompi_info"));
        assertEquals(NativeMpi.OPEN_MPI, none.toProbe(mpichOnly), "both installed: Open MPI");
    }

    private static void executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\n");
        assertTrue(file.toFile().setExecutable(true));
    }
}
