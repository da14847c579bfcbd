package org.fthp.launcher;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The file through which fthp-run tells the hydra proxy library in mpiexec.hydra which hosts the coordinators have
 * lost ({@value #ENV}; proxy-launcher/native/fthp_proxy_hydra.c): every address of each such host, one per line.
 * The library hides the end of a remote proxy's control connection from mpiexec only once that connection's peer
 * is listed here, so the coordinators, not mpiexec, decide about a lost host; a connection that ends with no host
 * listed is shown to mpiexec after a bound, and the job ends as it would without the library.
 *
 * <p>Rewritten whole through a temporary file and a rename, never appended to: the library reads it on every poll
 * slice while a connection waits for its verdict, and must never see half a line.
 */
final class LostHostsFile {

    /** mpiexec's environment: the file's path, which also turns the library's lost-host handling on. */
    static final String ENV = "FTHP_HYDRA_LOST_HOSTS";

    private final Path file;

    LostHostsFile(Path file) {
        this.file = file;
    }

    /** The file in job directory {@code jobDir} (on the launching host, where mpiexec runs). */
    static LostHostsFile in(Path jobDir) {
        return new LostHostsFile(jobDir.resolve("hosts-lost"));
    }

    Path path() {
        return file;
    }

    /** Adds {@code addresses} (of one lost host) to those already listed. */
    synchronized void add(Collection<String> addresses) throws IOException {
        Set<String> all = new LinkedHashSet<>(listed());
        all.addAll(addresses);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.write(partial, new ArrayList<>(all));
        try {
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot replace " + file + " atomically: " + e.getMessage(), e);
        }
    }

    /** The addresses listed so far (none before the first loss). */
    List<String> listed() throws IOException {
        try {
            return Files.readAllLines(file).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }
}
