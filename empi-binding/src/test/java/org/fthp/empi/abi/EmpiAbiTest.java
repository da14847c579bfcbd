package org.fthp.empi.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmpiAbiTest {

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path p = dir.resolve("abi.properties");
        Files.writeString(p, text);
        return p;
    }

    private static final String MPICH_LIKE = """
            library.path=/usr/lib/libmpich.so.12
            library.family=mpich
            handle.bytes=4
            aint.bytes=8
            count.bytes=8
            status.bytes=20
            status.source=8
            status.tag=12
            status.error=16
            const.MPI_ANY_SOURCE=-2
            handle.MPI_COMM_WORLD=int:1140850688
            """;

    @Test
    void readsAnIntegerHandleLibraryWithItsOwnStatusLayout() throws IOException {
        EmpiAbi abi = EmpiAbi.read(write(MPICH_LIKE));
        assertEquals(4, abi.handleBytes());
        assertEquals(20, abi.statusBytes());
        assertEquals(8, abi.statusSourceOffset());
        assertEquals(-2, abi.constant("MPI_ANY_SOURCE"));
        EmpiAbi.HandleRef world = abi.handle("MPI_COMM_WORLD");
        assertEquals(1140850688L, assertInstanceOf(EmpiAbi.IntValue.class, world).value());
    }

    @Test
    void missingEntriesFailLoudly() throws IOException {
        EmpiAbi abi = EmpiAbi.read(write(MPICH_LIKE));
        assertThrows(IllegalStateException.class, () -> abi.constant("MPI_NOT_THERE"));
        assertThrows(IllegalStateException.class, () -> abi.handle("MPI_NOT_THERE"));
        assertThrows(IOException.class, () -> EmpiAbi.read(write("handle.bytes=8\n")));
        assertThrows(IOException.class, () -> EmpiAbi.read(write(MPICH_LIKE.replace("handle.bytes=4", "handle.bytes=2"))));
    }

    /** The real probe, compiled with the installed library's mpicc: Open MPI's handles are exported objects. */
    @Test
    void probesTheInstalledLibrary() throws IOException {
        EmpiAbi abi = EmpiAbi.read(AbiProbe.ensureCached());
        assertTrue(Files.exists(Path.of(abi.libraryPath())), abi.libraryPath());
        assertTrue(abi.statusBytes() >= 12);
        assertEquals(0, abi.constant("MPI_SUCCESS"));
        if (abi.family().equals("openmpi")) {
            assertEquals(8, abi.handleBytes());
            assertEquals(new EmpiAbi.Symbol("ompi_mpi_comm_world"), abi.handle("MPI_COMM_WORLD"));
        }
    }
}
