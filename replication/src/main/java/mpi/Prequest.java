package mpi;

import org.fthp.replication.ops.NativeOp;
import org.fthp.replication.runtime.Gate;

/**
 * A persistent request: remembers how to start its operation, and starts a
 * fresh internal operation at every {@link #start()}.
 */
public final class Prequest extends Request {

    @FunctionalInterface
    interface Starter {
        NativeOp[] start() throws MPIException;
    }

    private final Starter starter;
    private boolean freed;

    protected Prequest(long handle) {
        super(handle);
        this.starter = null;
    }

    Prequest(Comm comm, Starter starter) {
        super(0);
        this.comm = comm;
        this.starter = starter;
        this.handle = 1;
    }

    boolean isPersistentAlive() {
        return !freed && starter != null;
    }

    @Override
    void retire() {
        ops = null; // inactive, still usable
    }

    public void start() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            MPI.check();
            if (freed || starter == null) {
                throw Errors.error(MPI.ERR_REQUEST, "persistent request has been freed");
            }
            if (ops != null) {
                throw Errors.error(MPI.ERR_REQUEST, "persistent request is already active");
            }
            try {
                NativeOp[] started = starter.start();
                ops = started;
                setResult(started[started.length - 1]);
            } catch (MPIException | RuntimeException e) {
                throw comm.fail(e);
            }
        } finally {
            gate.exit();
        }
    }

    public static void startAll(Prequest[] requests) throws MPIException {
        for (Prequest p : requests) {
            p.start();
        }
    }

    @Override
    public void free() throws MPIException {
        Gate gate = MPI.gate();
        gate.enter();
        try {
            super.free();
            freed = true;
            handle = 0;
        } finally {
            gate.exit();
        }
    }
}
