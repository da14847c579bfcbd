package org.fthp.replication.failure;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;

import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * A spare's connection to its node's coordinator: registered as a {@link Role#SPARE}, it hears nothing but the
 * news that ends its wait. Waiting is a latch on the connection's thread, so a spare uses no CPU and makes no MPI
 * call until then.
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

    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Outcome outcome;
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

    /** Blocks until the coordinators end this spare's wait. */
    public Outcome await() throws InterruptedException {
        ended.await();
        return outcome;
    }

    /** Tells the coordinator this spare ends normally, then disconnects. */
    public void finish() {
        client.finish();
    }

    private void end(Outcome why) {
        if (outcome == null) {
            outcome = why;
        }
        ended.countDown();
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
