package org.fthp.coordinator.event;

import java.util.Optional;

/**
 * Which copy of a logical rank a process is: the computational copy or its replica; or a spare, which holds no rank
 * until the coordinators give it one. Codes are wire values.
 */
public enum Role {
    CMP((byte) 0),
    REP((byte) 1),
    SPARE((byte) 2);

    private final byte code;

    Role(byte code) {
        this.code = code;
    }

    public byte code() {
        return code;
    }

    public static Optional<Role> fromCode(byte code) {
        for (Role r : values()) {
            if (r.code == code) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
