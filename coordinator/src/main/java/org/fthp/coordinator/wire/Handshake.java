package org.fthp.coordinator.wire;

import java.security.SecureRandom;

/** Both halves of the challenge–response: the server's fresh nonce and the peer's answer to it. */
public final class Handshake {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    /** A fresh nonce per connection, so a recorded AUTH cannot be replayed on another connection. */
    public static Message.Hello newHello() {
        byte[] nonce = new byte[Message.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return new Message.Hello(nonce);
    }

    public static Message.Auth answer(JobSecret secret, Message.Hello hello, PeerRole role, String identity) {
        return new Message.Auth(role, identity, secret.mac(hello.nonce(), role, identity));
    }

    public static boolean verify(JobSecret secret, Message.Hello sent, Message.Auth received) {
        return secret.verify(sent.nonce(), received.peerRole(), received.identity(), received.mac());
    }
}
