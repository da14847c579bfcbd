package org.fthp.replication.failure;

import org.fthp.coordinator.client.CoordinatorClient;

/**
 * This process's link to the coordinators as the engine's parts see it: empty until start-up has built
 * COMM_WORLD's and COMM_SELF's structures and connected, and for good in a job without coordinators. Until then no
 * failure can be announced, so the parts build, free and wait as in a job without failures.
 */
public final class Coordination {

    private volatile CoordinatorLink link;

    /** Once, at start-up. */
    public void connected(CoordinatorLink link) {
        this.link = link;
    }

    /** The link, or null (not connected yet, or no coordinators). */
    public CoordinatorLink link() {
        return link;
    }

    /** The coordinators' failure announcements, or null. */
    public FailureWatch watch() {
        CoordinatorLink l = link;
        return l == null ? null : l.watch();
    }

    /** The connection to this node's coordinator (checkpoint pieces, the timer), or null. */
    public CoordinatorClient client() {
        CoordinatorLink l = link;
        return l == null ? null : l.client();
    }
}
