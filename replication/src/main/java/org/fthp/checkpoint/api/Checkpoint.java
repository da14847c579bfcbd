package org.fthp.checkpoint.api;

import java.lang.reflect.Array;

import org.fthp.replication.runtime.Engine;

/**
 * Application-level checkpoints for a program running under {@code fthp-run}
 * (docs/DESIGN.md §12), in the spirit of FTI and VeloC: the program registers
 * its state once by name, asks at start whether this run is a restart and if
 * so recovers that state, and calls {@link #snapshot()} at a safe point of its
 * main loop; the coordinators decide when a checkpoint is taken. A program
 * that never calls this class runs as before, with replication only.
 *
 * <pre>{@code
 * MPI.Init(args);
 * Checkpoint.register("x", x);                 // double[]
 * Checkpoint.register("loop", loopState);      // a Checkpointable
 * if (Checkpoint.isRestart()) {
 *     Checkpoint.recover();
 * }
 * for (; loopState.iteration < n; loopState.iteration++) {
 *     ...
 *     Checkpoint.snapshot();
 * }
 * }</pre>
 *
 * <p>A snapshot is collective over COMM_WORLD: every rank calls it the same
 * number of times, at a point where no message it sent is still to be
 * received (the top or the bottom of an iteration, after its collectives), and
 * with no nonblocking request pending (that is an error on every rank, never
 * a corrupt checkpoint). In a job started without checkpoint storage a
 * snapshot does nothing and costs nothing. Calls are valid between
 * {@code MPI.Init} and {@code MPI.Finalize}, from the thread that calls MPI.
 *
 * <p>Under another implementation of the {@code mpi} API (Open MPI's own Java
 * binding ahead of FTHP-J on the class path) the calls behave as in a job
 * without checkpoint storage: registering checks its arguments and keeps
 * nothing, no run is a restart, no snapshot takes a checkpoint. A program
 * written for FTHP-J then still runs there, unchanged and without
 * checkpoints (what the benchmarks compare it on).
 */
public final class Checkpoint {

    /**
     * Whether the {@code mpi} classes this program runs on are another
     * binding's: they then come from another place than this class.
     */
    private static final boolean FOREIGN_MPI = foreignMpi();

    private Checkpoint() {}

    private static boolean foreignMpi() {
        var ours = Checkpoint.class.getProtectionDomain().getCodeSource();
        var theirs = mpi.MPI.class.getProtectionDomain().getCodeSource();
        return ours != null && theirs != null && !ours.getLocation().equals(theirs.getLocation());
    }

    /**
     * Registers (or replaces) the state saved under {@code name}: a primitive
     * array, a {@link java.nio.ByteBuffer} or a direct buffer of any type (its
     * bytes from position to limit), or a {@link Checkpointable}. The object
     * itself is kept: a checkpoint saves what it holds then, a recovery writes
     * into it.
     *
     * @throws CheckpointException for any other type, a null, or an empty name
     */
    public static void register(String name, Object state) {
        if (FOREIGN_MPI) {
            CheckpointSession.checkRegistration(name, state);
            return;
        }
        session().register(name, state);
    }

    /**
     * A new array of primitives, zeroed, registered under {@code name} like {@link #register}: for the state a
     * {@linkplain #resilient resilient body} allocates, e.g. {@code double[] x = Checkpoint.registerArray("x",
     * double[].class, n)}. When the body runs again after a rollback in place, a survivor gets back the very array
     * its unwound body registered under that name this way (same type and length), zeroed, instead of a new one:
     * its state stays where it is in memory, the rerun neither allocates it nor collects the old one, and
     * {@link #recover()} loads into it. Nothing of the unwound run is left in it; what the program sees is exactly
     * what {@code new double[n]} would give it. A spare taking a lost rank, a relaunched job and a first run get a
     * new array. Another type or length than before gives a new array too (the old one is then garbage).
     *
     * @throws CheckpointException for a type that is not an array of primitives, a negative length, or an empty
     *                             name
     */
    public static <A> A registerArray(String name, Class<A> type, int length) {
        if (FOREIGN_MPI) {
            CheckpointSession.checkArray(name, type, length);
            return type.cast(Array.newInstance(type.getComponentType(), length));
        }
        return session().registerArray(name, type, length);
    }

    /**
     * Registers {@code state} like {@link #register}, but the twins of a replicated rank do not compare it: values
     * that legitimately differ between the two copies (a copy's own timers, {@code System.nanoTime} read outside
     * MPI, a host name). It is checkpointed and recovered as any other.
     *
     * @throws CheckpointException as {@link #register}
     */
    public static void registerUncompared(String name, Object state) {
        if (FOREIGN_MPI) {
            CheckpointSession.checkRegistration(name, state);
            return;
        }
        session().registerUncompared(name, state);
    }

    /**
     * The program's next send or contribution to a collective (this process's own, e.g. an allreduce of a
     * wall-clock reading) legitimately differs between the twins of a replicated rank: they do not compare it.
     * Call it right before that call; it applies to that one call only. Outside MPI (before Init, after
     * Finalize, a program run without it) it does nothing: nothing is compared there.
     */
    public static void nextContributionUncompared() {
        Engine engine = Engine.get();
        if (!FOREIGN_MPI && engine != null && engine.running()) {
            CheckpointSession.of(engine).nextContributionUncompared();
        }
    }

    /** Forgets the state registered under {@code name} (nothing if none is). */
    public static void unregister(String name) {
        if (!FOREIGN_MPI) {
            session().unregister(name);
        }
    }

    /** Whether this run is a restart that resumes from a checkpoint, not yet recovered. */
    public static boolean isRestart() {
        return !FOREIGN_MPI && session().isRestart();
    }

    /**
     * A restart: fills every registered piece of state from the checkpoint
     * this run resumes from (every copy of a rank, computational and replica,
     * reads the same piece), and the program's output continues from where
     * it stood then. Returns the epoch recovered, or -1 when this run is not a
     * restart from a checkpoint (then nothing changes).
     *
     * @throws CheckpointException when the piece cannot be fetched, or a registered name or size does not
     *                             match it
     */
    public static long recover() {
        return FOREIGN_MPI ? -1 : session().recover();
    }

    /**
     * A safe point of the main loop, collective over COMM_WORLD: takes a
     * checkpoint when the coordinators' timer says one is due (every rank
     * agrees at the same call). Returns whether it took one (never without
     * checkpoint storage).
     *
     * @throws CheckpointException on every rank when any has a nonblocking request pending
     */
    public static boolean snapshot() {
        return !FOREIGN_MPI && session().snapshot(false);
    }

    /**
     * A checkpoint now, whatever the timer says; collective over COMM_WORLD.
     * Returns false, and takes none, when the job has no checkpoint storage
     * (fthp-run started it without {@code --checkpoint-interval},
     * {@code --checkpoint-dir} or {@code --restart}).
     *
     * @throws CheckpointException on every rank when any has a nonblocking request pending
     */
    public static boolean checkpoint() {
        return !FOREIGN_MPI && session().snapshot(true);
    }

    /** The epoch the next checkpoint will have (1 in a first run; one more than the recovered one after it). */
    public static long nextEpoch() {
        return FOREIGN_MPI ? 1 : session().nextEpoch();
    }

    /**
     * The newest epoch the coordinators have committed (every rank's piece held twice, in two nodes' memory), as
     * this process last heard; -1 when none has been, or the job has no checkpoint storage. A snapshot returns
     * before its epoch commits; a restart resumes from the epoch this names.
     */
    public static long lastCommittedEpoch() {
        return FOREIGN_MPI ? -1 : session().lastCommittedEpoch();
    }

    /**
     * Runs {@code body}, the program's resilient part (in the spirit of Reinit++'s {@code MPI_Reinit}), and runs it
     * again when the job rolls back in place: a rank lost every copy, a spare of the job ({@code fthp-run --spares})
     * takes its place, and every survivor unwinds from wherever it is in the body (the next MPI or checkpoint call
     * throws an {@link Error} that {@code catch (Exception)} lets through) back to here. Before the body runs again,
     * everything MPI of the old run is gone: its communicators, requests, windows and groups (a handle kept from it
     * is an error when used), its messages, and what it printed after the checkpoint is not printed twice. Only the
     * predefined {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} carry over. The body must rebuild, or register and
     * recover, all the state it uses: what it keeps elsewhere (static fields it does not reset) is as the failure
     * left it. What the body registered is forgotten when it unwinds (it registers its new state again), but for the
     * arrays it registered with {@link #registerArray}, which the rerun gets back; what was registered before the body
     * was first entered stays registered.
     *
     * <p>Without spares, or before the first checkpoint commits, or when the program does not call this method, a
     * lost rank relaunches the job as before ({@code --restart}).
     *
     * @throws CheckpointException when called again from inside a body
     */
    public static void resilient(ResilientBody body) throws mpi.MPIException {
        if (FOREIGN_MPI) {
            body.run(ResilientBody.Start.FIRST);
            return;
        }
        session();
        Resilience.run(body);
    }

    private static CheckpointSession session() {
        Engine engine = Engine.get();
        if (engine == null || !engine.running()) {
            throw new CheckpointException("checkpoint calls are valid between MPI.Init and MPI.Finalize");
        }
        return CheckpointSession.of(engine);
    }
}
