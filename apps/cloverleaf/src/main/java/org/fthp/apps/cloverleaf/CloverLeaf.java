package org.fthp.apps.cloverleaf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.io.BufferedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.fthp.checkpoint.api.Checkpoint;

/**
 * CloverLeaf 2D: a Java port of the UK-MAC CloverLeaf reference (compressible Euler equations,
 * explicit staggered-grid Lagrangian-Eulerian hydrodynamics), one chunk of the mesh per MPI rank.
 *
 * <pre>
 * fthp-run -np N -- -cp apps/cloverleaf/target/classes org.fthp.apps.cloverleaf.CloverLeaf \
 *     [--in clover.in] [--out clover.out] [--summary-file FILE]
 * </pre>
 *
 * Without {@code --in} the deck is {@code clover.in} in the working directory, or, as in the
 * reference, the built-in 10x2 self test when there is none. Exit status: 0 after a run (whatever
 * the test check says), 1 for a deck or run error, 2 for bad options.
 */
public final class CloverLeaf {

    static final String VERSION = "1.1 (Java port)";

    private CloverLeaf() {}

    /** Options, parsed identically by every rank (so every rank reaches the same decision without talking). */
    record Options(Path in, Path out, Path summaryFile) {

        static Options parse(String[] args) {
            Path in = null;
            Path out = Path.of("clover.out");
            Path summary = null;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length && (a.equals("--in") || a.equals("--out") || a.equals("--summary-file"))) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                switch (a) {
                    case "--in" -> in = Path.of(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--summary-file" -> summary = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'");
                }
            }
            return new Options(in, out, summary);
        }
    }

    static final String USAGE = "usage: CloverLeaf [--in DECK] [--out clover.out] [--summary-file FILE]";

    public static void main(String[] args) {
        PrintStream[] console = new PrintStream[1];
        int[] code = new int[1];
        try {
            String[] rest = MPI.Init(args);
            // everything after Init may run again: the job rolls back in place here when a rank loses every copy
            // and a spare takes it (fthp-run --spares); the body rebuilds the mesh and recovers the fields
            Checkpoint.resilient(start -> {
                // System.out as the runtime has it now: under fthp-run a replica's copy is kept back while its twin
                // prints, and a rerun's is positioned at its checkpoint; buffered, flushed at every summary
                console[0] = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false,
                        StandardCharsets.UTF_8);
                try {
                    code[0] = run(rest, console[0]);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                console[0].flush();
            });
            MPI.Finalize();
        } catch (Throwable thrown) {
            Throwable t = thrown instanceof UncheckedIOException u ? u.getCause() : thrown;
            // Anything unexpected on one rank would leave the others waiting in a collective: abort the job.
            if (console[0] != null) {
                console[0].flush();
            }
            System.err.println("CloverLeaf: fatal: " + t);
            t.printStackTrace();
            try {
                MPI.COMM_WORLD.abort(1);
            } catch (Throwable ignored) {
                // nothing more to do
            }
            code[0] = 1;
        }
        System.exit(code[0]);
    }

    static int run(String[] args, PrintStream console) throws MPIException, IOException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        boolean boss = rank == 0;

        Options opts;
        try {
            opts = Options.parse(args);
        } catch (IllegalArgumentException e) {
            if (boss) {
                System.err.println("CloverLeaf: " + e.getMessage());
                System.err.println(USAGE);
            }
            return 2;
        }

        // Rank 0 reads and checks the deck and opens clover.out; every rank learns the outcome from
        // one broadcast, so a bad deck stops all ranks instead of leaving them waiting.
        Report report = null;
        boolean resuming = Checkpoint.isRestart();
        String deckText = null;
        String source = null;
        String error = null;
        if (boss) {
            try {
                source = opts.in() != null ? opts.in().toString() : "clover.in";
                if (opts.in() != null) {
                    source = opts.in().toString();
                    deckText = Files.readString(opts.in());
                } else if (Files.exists(Path.of("clover.in"))) {
                    source = "clover.in";
                    deckText = Files.readString(Path.of("clover.in"));
                } else {
                    source = "(built-in test deck)";
                    deckText = Deck.DEFAULT_DECK;
                }
                Deck checked = DeckParser.parse(deckText);
                new Decomposition(checked.xCells(), checked.yCells(), size);
                report = new Report(true, opts.out(), opts.summaryFile(), console, resuming);
            } catch (DeckException e) {
                error = e.describe(source);
            } catch (java.nio.file.NoSuchFileException e) {
                error = "no such file: " + e.getFile();
            } catch (IOException e) {
                error = "cannot read the deck or write " + opts.out() + ": " + e;
            } catch (IllegalArgumentException e) {
                error = source + ": " + e.getMessage();
            }
        }
        byte[] payload = boss ? (error != null ? error : deckText).getBytes(StandardCharsets.UTF_8) : null;
        int[] head = {boss ? (error != null ? 1 : 0) : 0, boss ? payload.length : 0};
        world.bcast(head, 2, MPI.INT, 0);
        if (!boss) {
            payload = new byte[head[1]];
        }
        world.bcast(payload, head[1], MPI.BYTE, 0);
        String text = new String(payload, StandardCharsets.UTF_8);
        if (head[0] != 0) {
            if (boss) {
                System.err.println("CloverLeaf: " + text);
            }
            return 1;
        }
        if (!boss) {
            report = new Report(false, null, null, console, resuming);
        }

        Deck deck;
        try {
            deck = DeckParser.parse(text);
        } catch (DeckException e) {
            throw new IllegalStateException("rank 0 accepted a deck rank " + rank + " rejects", e);
        }
        try (Report r = report) {
            header(r, size, source, deck);
            Decomposition decomposition = new Decomposition(deck.xCells(), deck.yCells(), size);
            r.log("");
            r.log(" Mesh ratio of " + decomposition.meshRatio);
            r.log(" Decomposing the mesh into " + decomposition.chunksX + " by " + decomposition.chunksY + " chunks");
            r.log("");
            Chunk chunk = decomposition.chunkOf(rank, deck.xCells(), deck.yCells());
            Hydro hydro = new Hydro(deck, chunk, decomposition.neighbours(rank), world, r, size);
            r.log(" Generating chunks");
            hydro.start();
            r.log(" Starting the calculation");
            r.flush();
            // a restart rebuilt the mesh and the initial state as above (printing nothing twice), and now
            // takes the fields and the cycle's position from its checkpoint
            hydro.registerState();
            // the lengths of rank 0's own output files: each copy writes its own, they are not results
            Checkpoint.registerUncompared("clover.report", r);
            if (Checkpoint.isRestart()) {
                Checkpoint.recover();
            }
            try {
                hydro.run();
            } catch (Hydro.RunError e) {
                r.flush();
                if (boss) {
                    System.err.println("CloverLeaf: " + e.getMessage());
                }
                return 1;
            }
        }
        return 0;
    }

    private static void header(Report r, int size, String source, Deck deck) {
        r.both("");
        r.both("Clover Version " + VERSION);
        r.both("       MPI Version");
        r.both("    Task Count " + Fmt.i(size, 6));
        r.both("");
        r.console(" Output file clover.out opened. All output will go there.");
        r.log(" Clover will run from the following input (" + source + "):-");
        r.log("");
        for (String line : deck.text().split("\r?\n")) {
            r.log(line);
        }
        r.log("");
        r.log(" Initialising and generating");
        r.log("");
        r.log(String.format(java.util.Locale.ROOT, " %d states, %dx%d cells, end_time %s, end_step %d, test_problem %d",
                deck.states().size(), deck.xCells(), deck.yCells(), deck.endTime(), deck.endStep(), deck.testProblem()));
    }
}
