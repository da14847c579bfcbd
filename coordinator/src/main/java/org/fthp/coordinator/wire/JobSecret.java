package org.fthp.coordinator.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-job shared secret every coordinator connection proves knowledge of.
 *
 * <p>It travels only through the environment ({@value #ENV}, hex) from {@code fthp-run} to coordinators and
 * processes: a command line is world-readable in {@code /proc}, the environment of another user's process is not.
 * {@link #toString()} never shows it, so it cannot leak into a log by accident.
 */
public final class JobSecret {
    public static final String ENV = "FTHP_JOB_SECRET";
    public static final int GENERATED_BYTES = 32;
    /** Anything shorter is too weak to stand in for a per-job random key. */
    public static final int MIN_BYTES = 16;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HMAC = "HmacSHA256";

    private final byte[] key;

    private JobSecret(byte[] key) {
        if (key.length < MIN_BYTES) {
            throw new IllegalArgumentException("job secret must be at least " + MIN_BYTES + " bytes");
        }
        this.key = key.clone();
    }

    public static JobSecret generate() {
        byte[] key = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(key);
        return new JobSecret(key);
    }

    public static JobSecret fromHex(String hex) {
        return new JobSecret(HexFormat.of().parseHex(hex.strip()));
    }

    /** Reads {@value #ENV}; fails if it is missing, since running without authentication is never an option. */
    public static JobSecret fromEnvironment() {
        String hex = System.getenv(ENV);
        if (hex == null || hex.isBlank()) {
            throw new IllegalStateException(ENV + " is not set; fthp-run passes the job secret through it");
        }
        return fromHex(hex);
    }

    /** For the launcher to put into a child's environment — and nowhere else. */
    public String toHex() {
        return HexFormat.of().formatHex(key);
    }

    /**
     * HMAC-SHA256 over {@code nonce || role code || identity (UTF-8)}. The role is bound too, so a tag computed for
     * a process cannot be replayed to claim the coordinator role.
     */
    public byte[] mac(byte[] nonce, PeerRole role, String identity) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            mac.update(nonce);
            mac.update(role.code());
            mac.update(identity.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * HMAC-SHA256 over {@code context || nonce}: the proof of the secret for a connection outside the coordinators'
     * protocol (fthp-run's output sink). The context names that protocol, so a tag made for it is worth nothing
     * anywhere else.
     */
    public byte[] mac(byte[] context, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            mac.update(context);
            mac.update(nonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Constant-time comparison, so response timing does not reveal how many leading bytes of a guess were right. */
    public boolean verify(byte[] nonce, PeerRole role, String identity, byte[] presentedMac) {
        return MessageDigest.isEqual(mac(nonce, role, identity), presentedMac);
    }

    @Override
    public String toString() {
        return "JobSecret[redacted]";
    }
}
