package org.fthp.replication.routing;

/** What a native process is for its logical rank. */
public enum Role {
    /** The computational copy: the one whose results count. */
    CMP,
    /** The live replica, which follows its computational twin. */
    REP
}
