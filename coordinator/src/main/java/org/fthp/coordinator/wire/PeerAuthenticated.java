package org.fthp.coordinator.wire;

/**
 * Pipeline user event fired by {@link ServerAuthHandler} once the peer has proved it holds the job secret.
 * Handlers after it may trust {@code role}; {@code identity} is a self-description for logs only.
 */
public record PeerAuthenticated(PeerRole role, String identity) {
}
