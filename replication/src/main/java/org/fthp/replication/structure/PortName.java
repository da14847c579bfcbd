package org.fthp.replication.structure;

/**
 * A port of MPI_Open_port inside one job: no process joins from outside, so a
 * port is only a name both sides agree on, naming the process that opened it
 * (its COMM_WORLD rank, where the accepting side's root waits) and which of
 * that process's ports it is (so two ports of one process keep their
 * connections apart). Replicas of the opening process open the same ports in
 * the same order, so they name them alike.
 *
 * <p>Text form: {@code fthp-port:<world rank>:<serial>}.
 */
public record PortName(int worldRank, int serial) {

    private static final String PREFIX = "fthp-port:";

    public PortName {
        if (worldRank < 0 || serial < 0) {
            throw new IllegalArgumentException("port of rank " + worldRank + ", serial " + serial);
        }
    }

    @Override
    public String toString() {
        return PREFIX + worldRank + ":" + serial;
    }

    /**
     * The port a text names.
     *
     * @throws IllegalArgumentException if it is not a port name of this job
     */
    public static PortName parse(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a port name of this job: " + text);
        }
        String[] parts = text.trim().substring(PREFIX.length()).split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException("not a port name of this job: " + text);
        }
        try {
            return new PortName(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a port name of this job: " + text);
        }
    }
}
