package mpi;

import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Gate;
import org.fthp.replication.structure.CommStructure;
import org.fthp.replication.twins.Twins;

/**
 * A pending operation as the program sees it. Behind it are one or more
 * internal operations (one native request each); it completes when all of
 * them have, and only then does the program see a status.
 */
public class Request implements Freeable {

    protected long handle;
    protected Buffer sendBuf;
    protected Buffer recvBuf;

    Comm comm;
    NativeOp[] ops;
    private NativeOp resultOp;

    protected Request(long handle) {
        this.handle = handle;
    }

    Request(NativeOp op) {
        this.ops = new NativeOp[] {op};
        this.resultOp = op;
        this.handle = 1;
    }

    Request(Comm comm, NativeOp... ops) {
        this.comm = comm;
        this.ops = ops;
        this.resultOp = ops.length == 0 ? null : ops[ops.length - 1];
        this.handle = 1;
    }

    protected static long getNull() {
        return 0;
    }

    void setResult(NativeOp op) {
        this.resultOp = op;
    }

    /** Polls every internal operation once; true when all are complete. */
    boolean pollOnce() throws MPIException {
        if (ops == null) {
            return true;
        }
        try {
            boolean all = true;
            for (NativeOp op : ops) {
                all &= op.poll();
            }
            return all;
        } catch (RuntimeException e) {
            ops = null;
            handle = 0;
            throw failure(e);
        }
    }

    MPIException failure(Throwable t) {
        Comm c = comm != null ? comm : MPI.COMM_WORLD;
        return c.fail(t);
    }

    /** Status of the completed request, and retire it (persistent requests become inactive). */
    Status complete() {
        Status s = resultOp == null ? emptyStatus() : Requests.status(resultOp);
        retire();
        return s;
    }

    void retire() {
        ops = null;
        handle = 0;
    }

    static Status emptyStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, false, 0, MPI.UNDEFINED);
    }

    boolean isActive() {
        return ops != null;
    }

    @Override
    public void free() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (ops != null) {
                for (NativeOp op : ops) {
                    Engine.get().orphans().adopt(op);
                }
            }
            retire();
        } finally {
            gate.exit();
        }
    }

    public final void cancel() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (ops != null) {
                try {
                    for (NativeOp op : ops) {
                        op.cancel();
                    }
                } catch (RuntimeException e) {
                    throw failure(e);
                }
            }
        } finally {
            gate.exit();
        }
    }

    protected final void addRecvBufRef(Buffer buf) {
        this.recvBuf = buf;
    }

    protected final void addSendBufRef(Buffer buf) {
        this.sendBuf = buf;
    }

    public final boolean isNull() {
        return ops == null && !(this instanceof Prequest p && p.isPersistentAlive());
    }

    public final Status waitStatus() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (ops == null) {
                return emptyStatus();
            }
            awaitDone();
            return complete();
        } finally {
            gate.exit();
        }
    }

    /** Progresses this request until it is done (not yet completed for the program). */
    private void awaitDone() throws MPIException {
        Requests.await(this::pollOnce);
    }

    public final void waitFor() throws MPIException {
        waitStatus();
    }

    /**
     * Whether the request is done now. That depends on timing, so the
     * computational copy decides and its replica follows: a replica told
     * "done" waits until its own copy of the operation is.
     */
    private boolean doneNow() throws MPIException {
        CommStructure t = Engine.get().twins().world();
        long[] d = Twins.follows(t) ? Engine.get().twins().await(t, 1) : null;
        if (d != null) {
            if (d[0] == 0) {
                pollOnce();
                return false;
            }
            awaitDone();
            return true;
        }
        boolean done = pollOnce();
        Engine.get().twins().decide(t, done ? 1 : 0);
        return done;
    }

    public final Status testStatus() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (ops == null) {
                return emptyStatus();
            }
            return doneNow() ? complete() : null;
        } finally {
            gate.exit();
        }
    }

    public final Status getStatus() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (ops == null) {
                return emptyStatus();
            }
            return doneNow() ? (resultOp == null ? emptyStatus() : Requests.status(resultOp)) : null;
        } finally {
            gate.exit();
        }
    }

    public final boolean test() throws MPIException {
        return testStatus() != null;
    }

    // ---- on arrays of requests ----

    private static boolean anyActive(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.ops != null) {
                return true;
            }
        }
        return false;
    }

    /** Index of a done active request, or -1. */
    private static int pollAny(Request[] requests) throws MPIException {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.ops != null && r.pollOnce()) {
                return i;
            }
        }
        return -1;
    }

    /** Polls every active request once; true when all are done. */
    private static boolean pollAll(Request[] requests) throws MPIException {
        boolean all = true;
        for (Request r : requests) {
            if (r != null && r.ops != null && !r.pollOnce()) {
                all = false;
            }
        }
        return all;
    }

    private static void awaitAll(Request[] requests) throws MPIException {
        Requests.await(() -> pollAll(requests));
    }

    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (!anyActive(requests)) {
                return emptyStatus().withIndex(MPI.UNDEFINED);
            }
            CommStructure t = Engine.get().twins().world();
            int i;
            long[] d = Twins.follows(t) ? Engine.get().twins().await(t, 1) : null;
            if (d != null) {
                i = (int) d[0];
                requests[i].awaitDone();
            } else {
                int[] any = {-1};
                Requests.await(() -> (any[0] = pollAny(requests)) >= 0);
                i = any[0];
                Engine.get().twins().decide(t, i);
            }
            return requests[i].complete().withIndex(i);
        } finally {
            gate.exit();
        }
    }

    public static int waitAny(Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    public static Status testAnyStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (!anyActive(requests)) {
                return emptyStatus().withIndex(MPI.UNDEFINED);
            }
            CommStructure t = Engine.get().twins().world();
            int i;
            long[] d = Twins.follows(t) ? Engine.get().twins().await(t, 1) : null;
            if (d != null) {
                i = (int) d[0];
                if (i < 0) {
                    pollAny(requests);
                    return null;
                }
                requests[i].awaitDone();
            } else {
                i = pollAny(requests);
                Engine.get().twins().decide(t, i);
            }
            return i < 0 ? null : requests[i].complete().withIndex(i);
        } finally {
            gate.exit();
        }
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            awaitAll(requests);
            return completeAll(requests);
        } finally {
            gate.exit();
        }
    }

    private static Status[] completeAll(Request[] requests) {
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            out[i] = r == null || r.ops == null ? emptyStatus() : r.complete();
        }
        return out;
    }

    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            CommStructure t = Engine.get().twins().world();
            long[] d = Twins.follows(t) ? Engine.get().twins().await(t, 1) : null;
            if (d != null) {
                if (d[0] == 0) {
                    pollAll(requests);
                    return null;
                }
                awaitAll(requests);
                return completeAll(requests);
            }
            boolean all = pollAll(requests);
            Engine.get().twins().decide(t, all ? 1 : 0);
            return all ? completeAll(requests) : null;
        } finally {
            gate.exit();
        }
    }

    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    /**
     * Completes every active request that is done now (on a replica: those
     * its twin found done); null if none is active (an empty array, or only
     * null or inactive requests: MPI_UNDEFINED, as Open MPI's binding returns it).
     */
    private static Status[] collectSome(Request[] requests, boolean wait) throws MPIException {
        if (!anyActive(requests)) {
            return null;
        }
        CommStructure t = Engine.get().twins().world();
        List<Status> done = new ArrayList<>();
        long[] d = Twins.follows(t) ? Engine.get().twins().await(t, requests.length + 1) : null;
        if (d != null) {
            for (int k = 1; k <= d[0]; k++) {
                int i = (int) d[k];
                requests[i].awaitDone();
                done.add(requests[i].complete().withIndex(i));
            }
            if (d[0] == 0) {
                pollAll(requests);
            }
            return done.toArray(new Status[0]);
        }
        Requests.Poll someDone = () -> {
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                if (r != null && r.ops != null && r.pollOnce()) {
                    done.add(r.complete().withIndex(i));
                }
            }
            return !wait || !done.isEmpty();
        };
        if (!someDone.done()) {
            Requests.await(someDone);
        }
        if (t != null) {
            long[] decided = new long[done.size() + 1];
            decided[0] = done.size();
            for (int k = 0; k < done.size(); k++) {
                decided[k + 1] = done.get(k).getIndex();
            }
            Engine.get().twins().decide(t, decided);
        }
        return done.toArray(new Status[0]);
    }

    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            return collectSome(requests, true);
        } finally {
            gate.exit();
        }
    }

    public static int[] waitSome(Request[] requests) throws MPIException {
        return indexes(waitSomeStatus(requests));
    }

    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            return collectSome(requests, false);
        } finally {
            gate.exit();
        }
    }

    public static int[] testSome(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            return indexes(collectSome(requests, false));
        } finally {
            gate.exit();
        }
    }

    private static int[] indexes(Status[] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] idx = new int[statuses.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = statuses[i].getIndex();
        }
        return idx;
    }

    protected static long[] getHandles(Request[] r) {
        long[] h = new long[r.length];
        for (int i = 0; i < r.length; i++) {
            h[i] = r[i] == null ? 0 : r[i].handle;
        }
        return h;
    }

    protected static void setHandles(Request[] r, long[] h) {
        for (int i = 0; i < r.length; i++) {
            r[i].handle = h[i];
        }
    }
}
