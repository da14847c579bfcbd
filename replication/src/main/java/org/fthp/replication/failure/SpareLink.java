package org.fthp.replication.failure;

import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * A spare's connection to its node's coordinator: registered as a {@link Role#SPARE}, it hears the news that ends
 * its wait, and the size of the largest piece its node holds (which it readies heap for). Waiting is a monitor wait
 * of the spare's thread, so a spare uses no CPU and makes no MPI call until then.
 */
public final class SpareLink implements FailureListener {

    /** Why a spare's wait ended. */
    public enum Outcome {
        /** Every process of the program finished or failed: finalize with them. */
        RELEASED,
        /** The coordinators ended the job: the launcher is ending every process. */
        JOB_ENDED,
        /** A rollback names this spare: it takes the lost rank ({@link #role()}). */
        ROLE
    }

    /** Guards {@link #outcome} and {@link #warmWanted}; the waiting thread waits on it. */
    private final Object news = new Object();
    private volatile Outcome outcome;
    /** A piece size heard and not yet handed to the waiting thread (0: none). */
    private long warmWanted;
    private volatile CoordinatorClient client;
    private final int nativeRank;
    private volatile Message.Rollback role;

    private SpareLink(int nativeRank) {
        this.nativeRank = nativeRank;
    }

    /** The rollback that gave this spare a rank, once {@link #await} said {@link Outcome#ROLE}. */
    public Message.Rollback role() {
        return role;
    }

    @Override
    public void onRollback(Message.Rollback rollback) {
        if (rollback.spareNative() == nativeRank) {
            role = rollback;
            end(Outcome.ROLE);
        }
    }

    /** Connects spare {@code nativeRank} to its node's coordinator; null when the job has no coordinators. */
    public static SpareLink connectIfConfigured(int nativeRank, int nativeSize, int spareIndex)
            throws InterruptedException, TimeoutException {
        String list = System.getenv(CoordinatorLink.ADDRESSES_ENV);
        if (list == null || list.isBlank()) {
            return null;
        }
        System.setProperty("io.netty.noUnsafe", "true");
        String[] nodes = list.split(",");
        NodeAddress mine = NodeAddress.parse(nodes[CoordinatorLink.nodeOf(nativeRank, nativeSize, nodes.length,
                System.getenv(CoordinatorLink.NODE_OF_ENV))].strip());
        SpareLink link = new SpareLink(nativeRank);
        link.client = CoordinatorClient.builder()
                .coordinator(mine)
                .secret(JobSecret.fromEnvironment())
                .ranks(nativeRank, spareIndex, Role.SPARE)
                .listener(link)
                .connect();
        return link;
    }

    /**
     * Blocks until the coordinators end this spare's wait; meanwhile hands {@code warm} each larger piece size its
     * node reports, on this thread (it should give up soon once {@link #ended()}).
     */
    public Outcome await(LongConsumer warm) throws InterruptedException {
        while (true) {
            long bytes;
            synchronized (news) {
                while (outcome == null && warmWanted == 0) {
                    news.wait();
                }
                if (outcome != null) {
                    return outcome;
                }
                bytes = warmWanted;
                warmWanted = 0;
            }
            warm.accept(bytes);
        }
    }

    /** Whether the wait has ended (a warming in progress stops). */
    public boolean ended() {
        return outcome != null;
    }

    @Override
    public void onSpareWarm(long pieceBytes) {
        synchronized (news) {
            warmWanted = Math.max(warmWanted, pieceBytes);
            news.notifyAll();
        }
    }

    /** Tells the coordinator this spare ends normally, then disconnects. */
    public void finish() {
        client.finish();
    }

    private void end(Outcome why) {
        synchronized (news) {
            if (outcome == null) {
                outcome = why;
            }
            news.notifyAll();
        }
    }

    @Override
    public void onSparesReleased() {
        end(Outcome.RELEASED);
    }

    @Override
    public void onFailureSet(long epoch, List<FailedProcess> failed) {
        // a spare is sent no failure sets
    }

    @Override
    public void onJobAbort(String reason, int lostRank) {
        end(Outcome.JOB_ENDED);
    }
}
