package org.fthp.replication.routing;

/** One native message: over which communicator, to or from which rank in it. */
public record Route(Link link, int peer) {}
