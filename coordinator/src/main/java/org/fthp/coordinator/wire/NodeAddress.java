package org.fthp.coordinator.wire;

import java.net.InetSocketAddress;

/** Where a coordinator listens, as {@code host:port} (the form used in FTHP_COORDINATOR and node lists). */
public record NodeAddress(String host, int port) {
    public NodeAddress {
        if (host == null || host.isBlank() || port < 0 || port > 65535) {
            throw new IllegalArgumentException("bad coordinator address " + host + ":" + port);
        }
    }

    /** Parses {@code host:port}; the last colon splits, so a bracket-less IPv6 host is not supported. */
    public static NodeAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new NodeAddress(host, Integer.parseInt(text.substring(colon + 1)));
    }

    public InetSocketAddress toSocketAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
