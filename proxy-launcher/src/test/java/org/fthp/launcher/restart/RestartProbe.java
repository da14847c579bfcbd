package org.fthp.launcher.restart;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.fthp.checkpoint.piece.PieceReader;
import org.fthp.checkpoint.piece.PieceWriter;
import org.fthp.coordinator.client.CoordinatorClient;
import org.fthp.coordinator.client.FailureListener;
import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.Role;
import org.fthp.coordinator.wire.JobSecret;
import org.fthp.coordinator.wire.NodeAddress;

/**
 * A rank of RestartLoopTest's jobs, run by mpirun under fthp-run without MPI: it registers with its node's
 * coordinator the way the runtime does. In the first incarnation it (if {@code checkpoint}) puts a piece for
 * epoch 1 and waits for the commit, says so, and then native rank {@code victim} SIGKILLs itself while the others
 * wait to be ended; in a later incarnation every process prints what it recovers (the epoch from
 * FTHP_CHECKPOINT_EPOCH, the piece from the coordinators) and ends normally.
 *
 * <pre>RestartProbe checkpoint|plain VICTIM</pre>
 */
public final class RestartProbe {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private RestartProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean checkpoint = args[0].equals("checkpoint");
        int victim = Integer.parseInt(args[1]);
        int nativeRank = Integer.parseInt(System.getenv("OMPI_COMM_WORLD_RANK"));
        int nativeSize = Integer.parseInt(System.getenv("OMPI_COMM_WORLD_SIZE"));
        int n = Integer.parseInt(System.getenv("FTHP_LOGICAL_SIZE"));
        int incarnation = Integer.parseInt(System.getenv("FTHP_CHECKPOINT_RESTART"));
        long epoch = Long.parseLong(System.getenv("FTHP_CHECKPOINT_EPOCH"));
        int logical = nativeRank < n ? nativeRank : nativeRank - n;
        Role role = nativeRank < n ? Role.CMP : Role.REP;
        String[] nodes = System.getenv("FTHP_COORDINATORS").split(",");
        int perNode = (nativeSize + nodes.length - 1) / nodes.length;
        NodeAddress mine = NodeAddress.parse(nodes[Math.min(nodes.length - 1, nativeRank / perNode)].strip());
        System.setProperty("io.netty.noUnsafe", "true");
        CoordinatorClient client = CoordinatorClient.builder().coordinator(mine).secret(JobSecret.fromEnvironment())
                .ranks(nativeRank, logical, role).listener(new FailureListener() {
                    @Override public void onFailureSet(long e, List<FailedProcess> failed) { }
                    @Override public void onJobAbort(String reason, int lostRank) { }
                }).connect();
        if (incarnation == 0) {
            if (checkpoint) {
                if (role == Role.CMP) {
                    ByteBuffer piece = new PieceWriter(logical, 1, 0, 0).add("value", new long[] {1000 + logical})
                            .encode();
                    client.putPiece(1, logical, piece, WAIT);
                    client.reportCheckpointCost(1, logical, 2_000_000L);
                }
                if (!client.awaitCommitted(1, WAIT)) {
                    throw new IllegalStateException("epoch 1 did not commit");
                }
            }
            System.out.println("incarnation 0 native " + nativeRank + " ready");
            System.out.flush();
            if (nativeRank == victim) {
                Thread.sleep(300); // the others have said ready too
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            Thread.sleep(120_000); // fthp-run ends the job
            System.exit(1);
        }
        String state = "fresh";
        if (epoch >= 0) {
            long[] value = new long[1];
            PieceReader.open(client.getPiece(epoch, logical, WAIT)).readInto("value", value);
            state = "epoch " + epoch + " value " + value[0];
        }
        System.out.println("incarnation " + incarnation + " rank " + logical + " " + role + " of " + nativeSize
                + " processes: " + state);
        System.out.flush();
        client.finish();
    }
}
