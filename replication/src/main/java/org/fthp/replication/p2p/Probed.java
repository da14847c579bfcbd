package org.fthp.replication.p2p;

/**
 * What a probe found, in the program's terms: the logical source, the
 * program's tag and the payload size without the FTHP header.
 */
public record Probed(int source, int tag, int bytes) {}
