package org.fthp.launcher;

/**
 * Where a job with {@code --checkpoint-dir} starts, decided from what the directory holds ({@link CheckpointResume}).
 *
 * @param epoch           the committed epoch every rank recovers, -1 for none (the program starts from the beginning)
 * @param firstEpoch      the first epoch this job writes: above every epoch the directory holds, committed or not
 * @param outputContinues an earlier job's output files are kept: printing goes on from where it stopped
 */
record ResumePoint(long epoch, long firstEpoch, boolean outputContinues) {

    static final ResumePoint FRESH = new ResumePoint(-1, 1, false);

    /** Whether the ranks start as a restart does (recovering {@link #epoch}, or skipping what was printed). */
    boolean resumes() {
        return epoch >= 0 || outputContinues;
    }
}
