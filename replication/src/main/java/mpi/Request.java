package mpi;

import java.nio.Buffer;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.runtime.Engine;
import org.fthp.replication.runtime.Gate;

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
    /** The job's generation this request was made in: after a rollback in place it is stale. */
    private final int generation = Engine.currentGeneration();
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
        checkCurrent();
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

    /** A request of the old run is never waited on: its operations may wait on the dead process. */
    private void checkCurrent() throws MPIException {
        if (generation != Engine.currentGeneration()) {
            ops = null;
            handle = 0;
            throw Errors.error(MPI.ERR_REQUEST, "stale request: made before the job rolled back in place; its"
                    + " operation was abandoned with the old run");
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
                checkCurrent();
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
                checkCurrent();
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
            Requests.waited();
            return complete();
        } finally {
            gate.exit();
        }
    }

    /** Progresses this request until it is done (not yet completed for the program). */
    private void awaitDone() throws MPIException {
        if (!pollOnce()) {   // a request that is already done needs no wait
            await(null, this);
        }
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
        if (decided(1, () -> new long[] {pollOnce() ? 1 : 0})[0] == 0) {
            pollOnce(); // progress on a replica told "not yet"
            return false;
        }
        awaitDone();
        return true;
    }

    /** What the computational copy decided, through COMM_WORLD's twin link ({@code Twins#decided}). */
    private static long[] decided(int maxLength, Outcome local) throws MPIException {
        Engine engine = Engine.get();
        MPIException[] thrown = {null};
        long[] d = engine.twins().decided(engine.twins().world(), maxLength, () -> {
            try {
                return local.get();
            } catch (MPIException e) {
                thrown[0] = e;
                return null;
            }
        });
        if (thrown[0] != null) {
            throw thrown[0];
        }
        return d;
    }

    /** A local outcome, which may fail like any MPI call. */
    @FunctionalInterface
    private interface Outcome {
        long[] get() throws MPIException;
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
        if (!pollAll(requests)) {   // all done already: no wait
            await(requests, null);
        }
    }

    /** Waits on the engine's duty cycle until every one of {@code all}, or {@code one}, is done. */
    private static void await(Request[] all, Request one) throws MPIException {
        Done done = DONE.busy() ? new Done() : DONE;   // a wait inside a wait (from a poll): its own
        done.all = all;
        done.one = one;
        try {
            Engine.get().awaitRequests(done);
        } catch (UncheckedMpi u) {
            throw u.getCause();
        } finally {
            done.all = null;
            done.one = null;
        }
    }

    /**
     * The condition of a wait on requests, one object reused wait after wait: a wait of the small exchange
     * ({@code iRecv}, {@code iSend}, {@code waitAll}) allocates no lambda for it. Only the gate's holder uses it.
     */
    private static final Done DONE = new Done();

    private static final class Done implements java.util.function.BooleanSupplier {
        /** The requests waited on, all of them, or the one; both null while no wait uses this object. */
        Request[] all;
        Request one;

        boolean busy() {
            return all != null || one != null;
        }

        @Override
        public boolean getAsBoolean() {
            try {
                return one != null ? one.pollOnce() : pollAll(all);
            } catch (MPIException e) {
                throw new UncheckedMpi(e);
            }
        }
    }

    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (!anyActive(requests)) {
                return emptyStatus().withIndex(MPI.UNDEFINED);
            }
            int i = (int) decided(1, () -> {
                int[] any = {-1};
                Requests.await(() -> (any[0] = pollAny(requests)) >= 0);
                return new long[] {any[0]};
            })[0];
            requests[i].awaitDone();
            Requests.waited();
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
            int i = (int) decided(1, () -> new long[] {pollAny(requests)})[0];
            if (i < 0) {
                pollAny(requests); // progress on a replica told "none yet"
                return null;
            }
            requests[i].awaitDone();
            return requests[i].complete().withIndex(i);
        } finally {
            gate.exit();
        }
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        return waitAll(requests, true);
    }

    public static void waitAll(Request[] requests) throws MPIException {
        waitAll(requests, false);
    }

    /** Waits for every request and completes it; the statuses only when {@code statuses} (null otherwise). */
    private static Status[] waitAll(Request[] requests, boolean statuses) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            awaitAll(requests);
            Requests.waited();
            return completeAll(requests, statuses);
        } finally {
            gate.exit();
        }
    }

    /** Completes every request, with its status when {@code statuses}, else only retired (null). */
    private static Status[] completeAll(Request[] requests, boolean statuses) {
        Status[] out = statuses ? new Status[requests.length] : null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (statuses) {
                out[i] = r == null || r.ops == null ? emptyStatus() : r.complete();
            } else if (r != null && r.ops != null) {
                r.retire();
            }
        }
        return out;
    }

    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (decided(1, () -> new long[] {pollAll(requests) ? 1 : 0})[0] == 0) {
                pollAll(requests); // progress on a replica told "not all yet"
                return null;
            }
            awaitAll(requests);
            return completeAll(requests, true);
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
        // the outcome: how many are done, then their indices (done, not yet completed: the replica's may lag)
        long[] d = decided(requests.length + 1, () -> {
            long[] found = new long[requests.length + 1];
            Requests.Poll someDone = () -> {
                int n = 0;
                for (int i = 0; i < requests.length; i++) {
                    Request r = requests[i];
                    if (r != null && r.ops != null && r.pollOnce()) {
                        found[++n] = i;
                    }
                }
                found[0] = n;
                return !wait || n > 0;
            };
            if (!someDone.done()) {
                Requests.await(someDone);
            }
            return java.util.Arrays.copyOf(found, (int) found[0] + 1);
        });
        if (d[0] == 0) {
            pollAll(requests); // progress on a replica told "none yet"
        }
        Status[] done = new Status[(int) d[0]];
        for (int k = 0; k < done.length; k++) {
            int i = (int) d[k + 1];
            requests[i].awaitDone();
            done[k] = requests[i].complete().withIndex(i);
        }
        return done;
    }

    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            Status[] done = collectSome(requests, true);
            Requests.waited();
            return done;
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
