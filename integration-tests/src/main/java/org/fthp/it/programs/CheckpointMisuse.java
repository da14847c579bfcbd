package org.fthp.it.programs;

import java.nio.ByteBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import org.fthp.checkpoint.api.Checkpoint;
import org.fthp.checkpoint.api.CheckpointException;

/**
 * The checkpoint API's answers to a program's mistakes: a type it cannot
 * save, and a snapshot with a nonblocking request pending, are clear errors
 * on every rank alike (none is left waiting in the snapshot), and nothing is
 * lost: once the request completes the next checkpoint is taken.
 */
public final class CheckpointMisuse {

    private CheckpointMisuse() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        Check.runAll(world, "CheckpointMisuse", () -> {
            int rank = world.getRank();
            int size = world.getSize();
            expectFailure(() -> Checkpoint.register("name", "a String"), "is not a primitive array");
            expectFailure(() -> Checkpoint.register("", new int[1]), "non-empty name");
            expectFailure(() -> Checkpoint.register("null", null), "null");
            expectFailure(() -> Checkpoint.register("heap", java.nio.DoubleBuffer.allocate(4)), "direct buffer");
            int[] counter = {rank};
            Checkpoint.register("counter", counter);
            Checkpoint.register("direct", MPI.newDoubleBuffer(8));
            Checkpoint.register("bytes", ByteBuffer.allocate(16));

            // only rank 0 has a request pending, and every rank hears of it
            ByteBuffer in = MPI.newByteBuffer(4);
            Request pending = null;
            if (rank == 0) {
                pending = world.iRecv(in, 4, MPI.BYTE, size - 1, 77);
            }
            expectFailure(Checkpoint::checkpoint, "nonblocking requests pending (rank(s) 0)");
            if (rank == size - 1) {
                world.send(new byte[] {1, 2, 3, 4}, 4, MPI.BYTE, 0, 77);
            }
            if (pending != null) {
                pending.waitFor();
            }
            long epoch = Checkpoint.nextEpoch();
            Checkpoint.checkpoint();
            Check.that(Checkpoint.nextEpoch() == epoch + 1, "the checkpoint after the request completed was taken");
        });
        MPI.Finalize();
    }

    private static void expectFailure(Runnable call, String message) {
        try {
            call.run();
        } catch (CheckpointException e) {
            Check.that(e.getMessage().contains(message), "'" + e.getMessage() + "' says '" + message + "'");
            return;
        }
        throw new AssertionError("expected a CheckpointException saying '" + message + "'");
    }
}
