package org.fthp.replication.structure;

/**
 * What a facade communicator holds instead of its structure: the engine
 * re-points it when a repair rebuilds the communicator, so the facade object
 * the program keeps stays valid and reads its current structure with one
 * field read. Only the thread holding the gate reads or writes it.
 */
public final class CommRef {

    private CommStructure structure;

    public CommRef(CommStructure structure) {
        this.structure = structure;
    }

    /** The current structure; null once the communicator is freed. */
    public CommStructure get() {
        return structure;
    }

    /** After a repair: the rebuilt structure. */
    public void repoint(CommStructure next) {
        this.structure = next;
    }

    /** The communicator was freed. */
    public void clear() {
        this.structure = null;
    }
}
