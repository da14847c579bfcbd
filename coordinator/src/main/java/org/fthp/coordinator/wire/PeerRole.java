package org.fthp.coordinator.wire;

import java.util.Optional;

/** What kind of peer authenticates: an MPI process or another coordinator. Codes are wire values. */
public enum PeerRole {
    PROCESS((byte) 1),
    COORDINATOR((byte) 2);

    private final byte code;

    PeerRole(byte code) {
        this.code = code;
    }

    public byte code() {
        return code;
    }

    public static Optional<PeerRole> fromCode(byte code) {
        for (PeerRole r : values()) {
            if (r.code == code) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
