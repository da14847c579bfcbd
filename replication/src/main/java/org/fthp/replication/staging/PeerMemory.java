package org.fthp.replication.staging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;

import org.fthp.msglog.PullDescriptor;

/**
 * Other processes' {@link PullMemory} regions, mapped read-only in this one
 * the first time a descriptor names them, and kept mapped for the rest of the
 * run: a mapping holds the memory even after its owner died, so a copy from
 * it never faults.
 *
 * <p>A region is read only when its owner shares this process's network
 * namespace ({@link NodeIdentity}) and its first page shows the magic number
 * and the descriptor's token: a process of the same pid on another node, or a
 * later process that reused the pid, has none or another. A process whose
 * region cannot be opened or does not match is remembered as such, so its
 * later payloads go the native library's way without another attempt.
 */
public final class PeerMemory {

    /** Regions by pid and descriptor; a null segment: not readable from here. */
    private final Map<Long, Peer> peers = new HashMap<>();

    private record Peer(long token, MemorySegment region) {}

    /**
     * The payload a descriptor names, read-only, or null when this process
     * cannot read the sender's memory (another node, no {@code /proc} access).
     */
    public synchronized MemorySegment payload(MemorySegment descriptor) {
        if (PullDescriptor.node(descriptor) != NodeIdentity.CURRENT) {
            return null;   // another host's (or another emulated host's) process
        }
        int pid = PullDescriptor.pid(descriptor);
        int fd = PullDescriptor.fd(descriptor);
        long token = PullDescriptor.token(descriptor);
        long key = (long) pid << 32 | (fd & 0xffffffffL);
        Peer peer = peers.get(key);
        if (peer == null || peer.token() != token) {
            peer = new Peer(token, map(pid, fd, token));
            peers.put(key, peer);
        }
        if (peer.region() == null) {
            return null;
        }
        long offset = PullDescriptor.offset(descriptor);
        long length = PullDescriptor.length(descriptor);
        if (offset < PullMemory.PAGE || length < 0 || offset > peer.region().byteSize() - length) {
            return null;
        }
        return peer.region().asSlice(offset, length);
    }

    private static MemorySegment map(int pid, int fd, long token) {
        int file;
        try {
            file = SharedMappings.openReadOnly("/proc/" + pid + "/fd/" + fd);
        } catch (SharedMappings.MappingException e) {
            return null;
        }
        try {
            long fileBytes = SharedMappings.size(file);
            if (fileBytes < PullMemory.PAGE) {
                return null;   // not a region (too short to hold its first page)
            }
            long first = SharedMappings.map(file, PullMemory.PAGE, SharedMappings.PROT_READ);
            MemorySegment page = MemorySegment.ofAddress(first).reinterpret(PullMemory.PAGE);
            boolean ours = page.get(ValueLayout.JAVA_LONG, PullMemory.MAGIC_AT) == PullMemory.MAGIC
                    && page.get(ValueLayout.JAVA_LONG, PullMemory.TOKEN_AT) == token;
            long length = page.get(ValueLayout.JAVA_LONG, PullMemory.LENGTH_AT);
            SharedMappings.unmap(first, PullMemory.PAGE);
            if (!ours || length < PullMemory.PAGE || fileBytes < length) {
                return null;
            }
            long address = SharedMappings.map(file, length, SharedMappings.PROT_READ);
            return MemorySegment.ofAddress(address).reinterpret(length).asReadOnly();
        } catch (SharedMappings.MappingException e) {
            return null;
        } finally {
            // the mapping keeps the file; the descriptor is not needed any more
            SharedMappings.close(file);
        }
    }
}
