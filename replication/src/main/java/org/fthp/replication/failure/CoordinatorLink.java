package org.fthp.replication.failure;

import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.liveness.LifeLock;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * This process's connection to its node's coordinator, when fthp-run started
 * coordinators ({@code FTHP_COORDINATORS}: every node's address; emulated
 * nodes are consecutive blocks of native ranks). Staying connected is what
 * lets the coordinators notice this process die; {@link #finish()} at
 * Finalize says the end was not a failure.
 *
 * <p>Failure sets go to a {@link FailureWatch}, which the thread calling MPI
 * reads to start a repair.
 */
public final class CoordinatorLink implements FailureListener {

    public static final String ADDRESSES_ENV = "FTHP_COORDINATORS";
    /** {@code 1}: hold a life lock and read the failure board (coordinator.liveness.LifeLock); off by default. */
    public static final String LIFE_LOCK_ENV = "FTHP_LIFE_LOCK";

    /** Set once connected; failure sets may arrive before (the catch-up right after registering). */
    private volatile CoordinatorClient client;
    private final FailureWatch watch;
    private final int logicalRank;
    /**
     * Held for this process's life so its coordinator sees it die before the kernel has freed its memory
     * (coordinator.liveness.LifeLock); released at a normal end. Null without one.
     */
    private volatile LifeLock lifeLock;
    /** Opened when the coordinators end the job (a lost rank, or some copy's program ended it). */
    private final java.util.concurrent.CountDownLatch jobEnded = new java.util.concurrent.CountDownLatch(1);

    private CoordinatorLink(BlockingCalls blockingCalls, int logicalRank) {
        this.watch = new FailureWatch(blockingCalls);
        this.logicalRank = logicalRank;
    }

    /** Connects if the job has coordinators; null if it has none. */
    public static CoordinatorLink connectIfConfigured(int nativeRank, int nativeSize, int logicalRank, boolean replica,
                                                      BlockingCalls blockingCalls)
            throws InterruptedException, TimeoutException {
        String list = System.getenv(ADDRESSES_ENV);
        if (list == null || list.isBlank()) {
            return null;
        }
        // a few small messages per job: Netty's Unsafe fast paths are not worth the JDK's warnings
        System.setProperty("io.netty.noUnsafe", "true");
        String[] nodes = list.split(",");
        NodeAddress mine = NodeAddress.parse(nodes[nodeOf(nativeRank, nativeSize, nodes.length,
                System.getenv(NODE_OF_ENV))].strip());
        // the link listens before it connects: a process registering after a failure is sent the current
        // failure set at once, possibly before connect() returns here
        CoordinatorLink link = new CoordinatorLink(blockingCalls, logicalRank);
        JobSecret secret = JobSecret.fromEnvironment();
        // locked before registering: the coordinator starts waiting for it when the registration arrives
        // only with FTHP_LIFE_LOCK=1: it detects a death sooner, but the whole recovery is no shorter with it
        // (docs/notes/recovery-time.md)
        link.lifeLock = !"1".equals(System.getenv(LIFE_LOCK_ENV)) ? null
                : LifeLock.hold(LifeLock.pathFor(secret, nativeRank, ProcessHandle.current().pid()));
        if (link.lifeLock != null) {
            link.watch.readBoard(link.lifeLock);
        }
        link.client = CoordinatorClient.builder()
                .coordinator(mine)
                .secret(secret)
                .ranks(nativeRank, logicalRank, replica ? Role.REP : Role.CMP)
                .listener(link)
                // a restarted process fetches its piece while the rest of its start-up runs
                .prefetch(CoordinatorClient.restartEpochFromEnvironment())
                .connect();
        return link;
    }

    /**
     * On several hosts fthp-run places every process itself and names each native rank's coordinator (its
     * host's): {@code FTHP_COORDINATOR_OF=n0,n1,...}, the node id of native rank 0, 1, ...
     */
    public static final String NODE_OF_ENV = "FTHP_COORDINATOR_OF";

    /** The node named for {@code nativeRank} in {@code nodeOf} (FTHP_COORDINATOR_OF), else {@link #nodeOf(int, int, int)}. */
    static int nodeOf(int nativeRank, int nativeSize, int nodes, String nodeOf) {
        if (nodeOf == null || nodeOf.isBlank()) {
            return nodeOf(nativeRank, nativeSize, nodes);
        }
        String[] ids = nodeOf.split(",");
        int node = nativeRank < ids.length ? Integer.parseInt(ids[nativeRank].strip()) : -1;
        if (node < 0 || node >= nodes) {
            throw new IllegalStateException(NODE_OF_ENV + " names no coordinator for native rank " + nativeRank
                    + ": " + nodeOf);
        }
        return node;
    }

    /** Emulated nodes are blocks of consecutive native ranks, as even as the counts allow. */
    static int nodeOf(int nativeRank, int nativeSize, int nodes) {
        int perNode = (nativeSize + nodes - 1) / nodes;
        return Math.min(nodes - 1, nativeRank / perNode);
    }

    @Override
    public void onFailureSet(long epoch, List<FailedProcess> failed) {
        watch.onFailureSet(epoch, failed);
    }

    /** Who hears a rollback the coordinators announce (the running engine). */
    private volatile Consumer<Message.Rollback> rollbacks = r -> { };
    /** The latest rollback announced, or null: one may come before its listener is set. */
    private volatile Message.Rollback latestRollback;

    /**
     * {@code listener} hears every rollback from now on, and at once the latest one announced before (a listener
     * tells a new one from one it has acted on by its generation).
     */
    public void onRollback(Consumer<Message.Rollback> listener) {
        rollbacks = listener;
        Message.Rollback r = latestRollback;
        if (r != null) {
            listener.accept(r);
        }
    }

    /** The newest rollback announced so far, or null. */
    public Message.Rollback latestRollback() {
        return latestRollback;
    }

    @Override
    public void onRollback(Message.Rollback rollback) {
        latestRollback = rollback;
        rollbacks.accept(rollback);
        // the body run again recovers that epoch: its piece comes while this process unwinds and the job rebuilds
        prefetchPiece(rollback.epoch());
    }

    /**
     * Starts fetching this rank's piece of {@code epoch}, which the program's recovery then finds here; nothing
     * before the connection is up (a rollback caught up at registration: its spare asks once registered).
     */
    public void prefetchPiece(long epoch) {
        CoordinatorClient c = client;
        if (c != null) {
            c.prefetchPiece(epoch, logicalRank);
        }
    }

    /** The twins of this rank differ: the coordinators roll the job back in place, or end it with {@code reason}. */
    public void sdcDetected(int nativeRank, int generation, String reason) {
        String text = reason.length() > 900 ? reason.substring(0, 900) + "..." : reason;
        client.sdcDetected(nativeRank, logicalRank, generation, text);
    }

    /** This process's resilient body returned. */
    public void bodyLeft(int nativeRank) {
        client.bodyLeft(nativeRank);
    }

    /** This process entered its resilient body in generation {@code generation} of the job. */
    public void bodyEntered(int nativeRank, int generation) {
        client.bodyEntered(nativeRank, generation);
    }

    @Override
    public void onJobAbort(String reason, int lostRank) {
        org.fthp.replication.output.RuntimeMessages.say("fthp: the coordinators end the job: " + reason);
        jobEnded.countDown();
    }

    /** Some copy's program ended the job: fthp-run says so once, not every process. */
    @Override
    public void onProgramEnded(String reason, int rank, int exitCode) {
        jobEnded.countDown();
    }

    /** This copy's program ends the job with {@code exitCode} for {@code reason} (see {@code ProgramEnd}). */
    public void reportProgramEnd(int exitCode, String reason) {
        String text = reason.length() > 900 ? reason.substring(0, 900) + "..." : reason;
        client.programEnded(logicalRank, exitCode, text, java.time.Duration.ofSeconds(2));
    }

    /** Waits until the coordinators end the job, at most {@code millis}; whether they did. */
    public boolean awaitJobEnd(long millis) {
        try {
            return jobEnded.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return jobEnded.getCount() == 0;
        }
    }

    public FailureWatch watch() {
        return watch;
    }

    /** The connection itself: checkpoint pieces, the checkpoint timer's sequence, commits. */
    public CoordinatorClient client() {
        return client;
    }

    /** Tells the coordinator this process ends normally, then disconnects. */
    public void finish() {
        // first, so the coordinator's wait on it ends without a verdict before the connection goes
        LifeLock held = lifeLock;
        if (held != null) {
            lifeLock = null;
            held.release();
        }
        client.finish();
    }
}
