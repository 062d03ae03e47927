package org.tomospark.executor.inputs;

import io.jhdf.Constants;
import io.jhdf.FractalHeap;
import io.jhdf.GroupSymbolTableNode;
import io.jhdf.LocalHeap;
import io.jhdf.ObjectHeader;
import io.jhdf.SymbolTableEntry;
import io.jhdf.Utils;
import io.jhdf.btree.BTreeV1;
import io.jhdf.btree.BTreeV2;
import io.jhdf.btree.record.LinkNameForIndexedGroupRecord;
import io.jhdf.object.message.LinkInfoMessage;
import io.jhdf.object.message.LinkMessage;
import io.jhdf.object.message.SymbolTableMessage;
import io.jhdf.storage.HdfBackingStorage;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Follows a path through an HDF5 file's groups to the address of the object it names, reading only the links of
 * each group on the way. jhdf's own lookup loads every object of a group to list it, so one object it cannot read (a
 * virtual dataset, say) hides all its siblings; this lookup does not look at them. Hard and soft links are followed;
 * groups may keep their links in a symbol table (old style) or in link messages, compact or dense (new style).
 */
final class HdfLinks {
    private static final int MAX_SOFT_LINKS = 32;

    private HdfLinks() {
    }

    /** The object header address of {@code path} (absolute), or empty where some part of it does not exist. */
    static Optional<Long> resolve(HdfBackingStorage storage, long rootAddress, String path) {
        return resolve(storage, rootAddress, path, 0);
    }

    private static Optional<Long> resolve(HdfBackingStorage storage, long rootAddress, String path, int softLinks) {
        if (softLinks > MAX_SOFT_LINKS) throw new IllegalStateException(path + ": more than " + MAX_SOFT_LINKS
                + " soft links in a row");
        long address = rootAddress;
        String[] parts = path.replaceAll("^/+", "").split("/+");
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty()) continue;
            Optional<Link> link = find(storage, address, parts[i]);
            if (link.isEmpty()) return Optional.empty();
            if (link.get().softTarget() != null) {
                String rest = String.join("/", List.of(parts).subList(i + 1, parts.length));
                String target = link.get().softTarget();
                String base = target.startsWith("/") ? target : "/" + String.join("/", List.of(parts).subList(0, i))
                        + "/" + target;
                return resolve(storage, rootAddress, rest.isEmpty() ? base : base + "/" + rest, softLinks + 1);
            }
            address = link.get().address();
        }
        return Optional.of(address);
    }

    /** A link: the object's address, or a soft link's target path. */
    private record Link(long address, String softTarget) {
    }

    private static Optional<Link> find(HdfBackingStorage storage, long groupAddress, String name) {
        ObjectHeader oh = ObjectHeader.readObjectHeader(storage, groupAddress);
        if (oh.hasMessageOfType(SymbolTableMessage.class)) return findOldStyle(storage,
                oh.getMessageOfType(SymbolTableMessage.class), name);
        if (!oh.hasMessageOfType(LinkInfoMessage.class)) return Optional.empty(); // not a group
        for (LinkMessage m : links(storage, oh))
            if (m.getLinkName().equals(name))
                return switch (m.getLinkType()) {
                    case HARD -> Optional.of(new Link(m.getHardLinkAddress(), null));
                    case SOFT -> Optional.of(new Link(-1, m.getSoftLink()));
                    case EXTERNAL -> throw new IllegalStateException("'" + name + "' is an external link to "
                            + m.getExternalFile()
                            + ":" + m.getExternalPath()
                            + " in a group that jhdf cannot list; open that file's dataset directly");
                };
        return Optional.empty();
    }

    private static List<LinkMessage> links(HdfBackingStorage storage, ObjectHeader oh) {
        LinkInfoMessage info = oh.getMessageOfType(LinkInfoMessage.class);
        if (info.getBTreeNameIndexAddress() == Constants.UNDEFINED_ADDRESS)
            return oh.getMessagesOfType(LinkMessage.class);
        BTreeV2<LinkNameForIndexedGroupRecord> names = new BTreeV2<>(storage, info.getBTreeNameIndexAddress());
        FractalHeap heap = new FractalHeap(storage, info.getFractalHeapAddress());
        List<LinkMessage> out = new ArrayList<>();
        for (LinkNameForIndexedGroupRecord r : names.getRecords())
            out.add(LinkMessage.fromBuffer(heap.getId(r.getId()), storage.getSuperblock()));
        return out;
    }

    private static Optional<Link> findOldStyle(HdfBackingStorage storage, SymbolTableMessage stm, String name) {
        ByteBuffer names = new LocalHeap(storage, stm.getLocalHeapAddress()).getDataBuffer();
        for (long node : BTreeV1.createGroupBTree(storage, stm.getBTreeAddress()).getChildAddresses())
            for (SymbolTableEntry e : new GroupSymbolTableNode(storage, node).getSymbolTableEntries()) {
                if (!name.equals(string(names, e.getLinkNameOffset()))) continue;
                if (e.getCacheType() == 2) return Optional.of(new Link(-1, string(names, e.getLinkValueOffset())));
                return Optional.of(new Link(e.getObjectHeaderAddress(), null));
            }
        return Optional.empty();
    }

    private static String string(ByteBuffer heap, int offset) {
        ByteBuffer b = heap.duplicate();
        b.position(offset);
        return Utils.readUntilNull(b);
    }
}
