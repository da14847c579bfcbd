package org.fthp.it.programs;

import java.nio.IntBuffer;

import mpi.CartComm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * A pending ANY_SOURCE/ANY_TAG receive must not take the messages a
 * neighbourhood collective exchanges underneath: it gets only the program's
 * own message, sent after the collective.
 */
public final class CollNeighborWildcard {

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);

        IntBuffer wild = MPI.newIntBuffer(1);
        Request pending = ring.iRecv(wild, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);

        int[] mine = {100 + rank};
        int[] got = new int[2];
        ring.neighborAllGather(mine, 1, MPI.INT, got, 1, MPI.INT);
        int left = (rank - 1 + size) % size;
        int right = (rank + 1) % size;
        Check.array(new int[] {100 + left, 100 + right}, got, "neighbour values");
        Check.that(!pending.test(), "the wildcard receive stayed pending through the collective");
        ring.barrier(); // nobody sends the program's message before everyone has looked

        ring.send(new int[] {7000 + rank}, 1, MPI.INT, right, 9);
        Status st = pending.waitStatus();
        Check.equal(7000 + left, wild.get(0), "wildcard receive got the program's message");
        Check.equal(left, st.getSource(), "source");
        Check.equal(9, st.getTag(), "tag");

        ring.barrier();
        if (rank == 0) {
            System.out.println("CollNeighborWildcard OK np=" + size);
        }
        MPI.Finalize();
    }
}
