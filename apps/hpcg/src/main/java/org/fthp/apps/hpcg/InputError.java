package org.fthp.apps.hpcg;

/** Bad command line or hpcg.dat: reported on rank 0 as one clear line, and the job exits non-zero. */
final class InputError extends RuntimeException {
    InputError(String message) {
        super(message);
    }
}
