package org.fthp.coordinator.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import org.fthp.coordinator.event.FailedProcess;
import org.fthp.coordinator.event.JobEvents;
import org.fthp.coordinator.event.Role;

/** Every message of the coordinator protocol, one record per {@link MessageType}. */
public sealed interface Message {

    MessageType type();

    /** Size of the server's challenge and of an HMAC-SHA256 tag. */
    int NONCE_BYTES = 32;
    int MAC_BYTES = 32;

    record Hello(byte[] nonce) implements Message {
        public Hello {
            if (nonce.length != NONCE_BYTES) {
                throw new IllegalArgumentException("nonce must be " + NONCE_BYTES + " bytes");
            }
            nonce = nonce.clone();
        }

        @Override public byte[] nonce() { return nonce.clone(); }
        @Override public MessageType type() { return MessageType.HELLO; }
        @Override public boolean equals(Object o) { return o instanceof Hello h && Arrays.equals(nonce, h.nonce); }
        @Override public int hashCode() { return Arrays.hashCode(nonce); }
        @Override public String toString() { return "Hello[" + HexFormat.of().formatHex(nonce) + "]"; }
    }

    record Auth(PeerRole peerRole, String identity, byte[] mac) implements Message {
        public Auth {
            Objects.requireNonNull(peerRole, "peerRole");
            Objects.requireNonNull(identity, "identity");
            if (mac.length != MAC_BYTES) {
                throw new IllegalArgumentException("mac must be " + MAC_BYTES + " bytes");
            }
            mac = mac.clone();
        }

        @Override public byte[] mac() { return mac.clone(); }
        @Override public MessageType type() { return MessageType.AUTH; }
        @Override public boolean equals(Object o) {
            return o instanceof Auth a && peerRole == a.peerRole && identity.equals(a.identity) && Arrays.equals(mac, a.mac);
        }
        @Override public int hashCode() { return Objects.hash(peerRole, identity, Arrays.hashCode(mac)); }
        /** The tag is left out: logs should not carry authentication material. */
        @Override public String toString() { return "Auth[" + peerRole + ", " + identity + "]"; }
    }

    record RegisterProcess(long pid, int nativeRank, int logicalRank, Role role) implements Message {
        public RegisterProcess {
            Objects.requireNonNull(role, "role");
        }
        @Override public MessageType type() { return MessageType.REGISTER_PROCESS; }
    }

    record RegisterCoordinator(int nodeId) implements Message {
        @Override public MessageType type() { return MessageType.REGISTER_COORDINATOR; }
    }

    record FailureReport(List<FailedProcess> failed) implements Message {
        public FailureReport {
            failed = List.copyOf(failed);
        }
        @Override public MessageType type() { return MessageType.FAILURE_REPORT; }
    }

    record FailureSet(long epoch, List<FailedProcess> failed) implements Message {
        public FailureSet {
            failed = List.copyOf(failed);
        }
        @Override public MessageType type() { return MessageType.FAILURE_SET; }
    }

    /** @param lostRank the logical rank that lost every copy, or {@link #NO_RANK} when the dead process had no rank yet */
    record JobAbort(String reason, int lostRank) implements Message {
        /** A process died before it registered: no logical rank is known for it. */
        public static final int NO_RANK = JobEvents.NO_RANK;

        public JobAbort {
            Objects.requireNonNull(reason, "reason");
            if (lostRank < NO_RANK) {
                throw new IllegalArgumentException("lost rank must be >= 0 or NO_RANK: " + lostRank);
            }
        }
        @Override public MessageType type() { return MessageType.JOB_ABORT; }
    }

    record ProcessDone() implements Message {
        @Override public MessageType type() { return MessageType.PROCESS_DONE; }
    }

    record Registered(int nodeId) implements Message {
        @Override public MessageType type() { return MessageType.REGISTERED; }
    }

    /** Node {@code nodeId} was told {@code pid} died and no process with that pid registered there in time. */
    record UnownedPid(long pid, int nodeId) implements Message {
        public UnownedPid {
            if (pid <= 0 || nodeId < 0) {
                throw new IllegalArgumentException("need pid > 0 and node id >= 0: pid " + pid + ", node " + nodeId);
            }
        }
        @Override public MessageType type() { return MessageType.UNOWNED_PID; }
    }
}
