package org.fthp.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Where a job that outlived its deadline is stuck, taken before it is killed: for every process still running,
 * each thread's kernel state and wait channel, and for a JVM its Java threads' stacks (through {@code jcmd}, the
 * process's own JDK's). A hang seen once in CI and never again on this machine is then diagnosable from the failure
 * message alone.
 */
final class HangReport {

    /** How long one JVM may take to answer {@code jcmd}: a wedged one (in a native call) still answers. */
    private static final long JCMD_SECONDS = 10;

    /** Frames kept per Java thread: enough to see the MPI call and the facade under it. */
    private static final int FRAMES_PER_THREAD = 30;

    private HangReport() {}

    /** The report for {@code root}'s process tree (itself included while alive). */
    static String of(ProcessHandle root) {
        StringBuilder report = new StringBuilder("--- where the job's processes were at the deadline ---\n");
        List<ProcessHandle> processes = new ArrayList<>();
        if (root.isAlive()) {
            processes.add(root);
        }
        root.descendants().filter(ProcessHandle::isAlive).forEach(processes::add);
        for (ProcessHandle p : processes) {
            String command = p.info().commandLine().orElse("?");
            report.append("pid ").append(p.pid()).append(' ')
                    .append(command, 0, Math.min(command.length(), 200)).append('\n');
            threads(p.pid(), report);
            javaStacks(p, report);
        }
        return report.toString();
    }

    /**
     * One line per thread that is not parked on a futex (running, in a syscall, in a socket wait): name, state
     * letter and wait channel, from /proc; the parked ones only counted (a JVM has a dozen of its own).
     */
    private static void threads(long pid, StringBuilder report) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        int parked = 0;
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : list.sorted().toList()) {
                String stat = read(task.resolve("stat"));
                // the state letter follows the name's closing parenthesis (a name may hold spaces or parentheses)
                int close = stat.lastIndexOf(')');
                String state = close > 0 && close + 2 < stat.length() ? stat.substring(close + 2, close + 3) : "?";
                String wchan = read(task.resolve("wchan")).strip();
                if (state.equals("S") && wchan.startsWith("futex")) {
                    parked++;
                    continue;
                }
                report.append("  tid ").append(task.getFileName()).append(' ')
                        .append(read(task.resolve("comm")).strip()).append(' ').append(state).append(' ')
                        .append(wchan).append('\n');
            }
        } catch (IOException e) {
            report.append("  (threads unreadable: ").append(e.getMessage()).append(")\n");
        }
        report.append("  threads parked on a futex: ").append(parked).append('\n');
    }

    /** The Java threads' stacks of a JVM (other processes: nothing), each cut to its top frames. */
    private static void javaStacks(ProcessHandle p, StringBuilder report) {
        Optional<Path> jcmd = p.info().command().map(Path::of)
                .filter(c -> c.getFileName().toString().equals("java"))
                .map(c -> c.resolveSibling("jcmd")).filter(Files::isExecutable);
        if (jcmd.isEmpty()) {
            return;
        }
        try {
            Path out = Files.createTempFile("fthp-jcmd", ".txt");
            try {
                Process dump = new ProcessBuilder(jcmd.get().toString(), Long.toString(p.pid()), "Thread.print")
                        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
                if (!dump.waitFor(JCMD_SECONDS, TimeUnit.SECONDS)) {
                    dump.destroyForcibly();
                    report.append("  (jcmd did not answer within ").append(JCMD_SECONDS).append(" s)\n");
                    return;
                }
                for (String thread : javaThreads(Files.readAllLines(out))) {
                    report.append(thread);
                }
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            report.append("  (jcmd failed: ").append(e.getMessage()).append(")\n");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The threads of a {@code Thread.print} dump worth reading: the program's main thread and any thread running
     * this project's code (its own threads, and a JDK thread inside a callback), each cut to its top frames. The
     * JVM's own threads (compiler, GC, reference handling) never explain a hung job.
     */
    static List<String> javaThreads(List<String> dump) {
        List<String> kept = new ArrayList<>();
        StringBuilder thread = null;
        boolean ours = false;
        int frames = 0;
        for (String line : dump) {
            if (line.startsWith("\"")) {
                if (thread != null && ours) {
                    kept.add(thread.toString());
                }
                thread = new StringBuilder();
                ours = line.startsWith("\"main\"");
                frames = 0;
            }
            if (thread == null || line.isBlank() || line.strip().startsWith("- ")) {
                continue;
            }
            if (line.strip().startsWith("at ")) {
                ours |= line.contains("org.fthp.");
                if (++frames > FRAMES_PER_THREAD) {
                    continue;
                }
            }
            thread.append("  | ").append(line).append('\n');
        }
        if (thread != null && ours) {
            kept.add(thread.toString());
        }
        return kept;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "?";
        }
    }
}
