package org.fthp.replication.collective;

import java.lang.foreign.MemorySegment;

import org.fthp.replication.datatype.Packer;
import org.fthp.replication.datatype.TypeLayout;
import org.fthp.replication.datatype.UserBuffer;
import org.fthp.replication.sdc.SendDigest;

/**
 * A region of a program's buffer that a collective reads or writes:
 * {@code count} items of {@code type} from byte {@code start}. A null
 * {@code buf} (nothing to move: zero items, or items of no size) packs and
 * unpacks nothing.
 */
public record Region(UserBuffer buf, long start, int count, TypeLayout type) {

    /** Bytes the region's items take packed. */
    public long bytes() {
        return count * type.size();
    }

    /** Packs the items into {@code seg} from byte {@code at}. */
    public void packInto(MemorySegment seg, long at) {
        // every contribution to a collective is packed here, by both twins alike: the twin hash takes it
        SendDigest d = SendDigest.active();
        if (d != null) {
            d.packContributed(buf, start, count, type, seg, at);
        } else if (buf != null) {
            Packer.pack(buf, start, count, type, seg, at);
        }
    }

    /** Unpacks the items from {@code seg} at byte {@code at} into the program's buffer. */
    public void unpackFrom(MemorySegment seg, long at) {
        if (buf != null) {
            Packer.unpack(seg, at, buf, start, count, type);
        }
    }
}
