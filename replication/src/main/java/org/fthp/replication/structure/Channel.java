package org.fthp.replication.structure;

/** Whose point-to-point traffic a message is: the program's, or the facade's own. */
public enum Channel {
    /** The program's messages, matched by its own tags and wildcards. */
    USER,
    /** Messages the facade sends to implement something else (e.g. neighbourhood collectives). */
    INTERNAL
}
