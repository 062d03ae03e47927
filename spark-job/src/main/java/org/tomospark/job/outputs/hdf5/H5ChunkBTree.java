package org.tomospark.job.outputs.hdf5;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunk index: a version 1 B-tree of type 1 over chunks of [1][height][width], laid out from a given address.
 * Each node is allocated for 2K = 64 children (K = 32, what a version 0 superblock implies) whether full or not, as
 * readers read whole nodes. Leaves (level 0) point at chunks; each level above points at the nodes below, until one
 * node, the root, remains. Key i of a node holds the offset (z, 0, 0, 0) of the first chunk under child i, the last
 * key the offset just past the node's last chunk; nodes of one level link to their siblings. The nodes are laid out
 * root first, level by level.
 */
final class H5ChunkBTree {
    static final int CHILDREN = 64;
    private static final byte[] SIGNATURE = "TREE".getBytes(StandardCharsets.US_ASCII);

    /**
     * One node: its children are [from, to) of the level below (chunks for a leaf), which cover chunks
     * [firstChunk, endChunk).
     */
    private record Node(int from, int to, int firstChunk, int endChunk) {
    }

    private final long[] chunkZ;
    private final long[] chunkAddress;
    private final int chunkBytes;
    private final int rank;
    /** Levels, leaves first. */
    private final List<List<Node>> levels = new ArrayList<>();
    /** Each level's first node's address; the nodes of a level are consecutive. */
    private final List<Long> levelAddress = new ArrayList<>();
    private final int nodeBytes;

    /**
     * @param chunkZ       the chunks' z offsets, ascending
     * @param chunkAddress each chunk's address in the file
     * @param chunkBytes   bytes of every chunk
     * @param rank         the dataset's rank
     * @param at           the address of the first node
     */
    H5ChunkBTree(long[] chunkZ, long[] chunkAddress, int chunkBytes, int rank, long at) {
        this.chunkZ = chunkZ.clone();
        this.chunkAddress = chunkAddress.clone();
        this.chunkBytes = chunkBytes;
        this.rank = rank;
        this.nodeBytes = 24 + CHILDREN * 8 + (CHILDREN + 1) * keyBytes();
        if (chunkZ.length == 0) return;
        List<Node> level = split(chunkZ.length, null);
        levels.add(level);
        while (level.size() > 1) {
            level = split(level.size(), level);
            levels.add(level);
        }
        long address = at;
        for (int l = levels.size() - 1; l >= 0; l--) {
            levelAddress.add(0, address);
            address += (long) levels.get(l).size() * nodeBytes;
        }
    }

    /** {@code n} children (chunks, or the nodes of {@code below}) over the fewest nodes, as evenly as possible. */
    private static List<Node> split(int n, List<Node> below) {
        int nodes = (n + CHILDREN - 1) / CHILDREN;
        List<Node> out = new ArrayList<>();
        int at = 0;
        for (int i = 0; i < nodes; i++) {
            int to = at + n / nodes + (i < n % nodes ? 1 : 0);
            out.add(below == null ? new Node(at, to, at, to)
                    : new Node(at, to, below.get(at).firstChunk(), below.get(to - 1).endChunk()));
            at = to;
        }
        return out;
    }

    private int keyBytes() {
        return 8 + 8 * (rank + 1);
    }

    private long address(int level, int node) {
        return levelAddress.get(level) + (long) node * nodeBytes;
    }

    /** The root's address, or the undefined address when there is no chunk. */
    long rootAddress() {
        return levels.isEmpty() ? H5Layout.UNDEFINED : address(levels.size() - 1, 0);
    }

    /** Bytes of all the nodes. */
    long bytes() {
        long n = 0;
        for (List<Node> l : levels) n += (long) l.size() * nodeBytes;
        return n;
    }

    /** The nodes, in address order. */
    void encode(ByteBuffer b) {
        for (int l = levels.size() - 1; l >= 0; l--) {
            List<Node> nodes = levels.get(l);
            for (int i = 0; i < nodes.size(); i++) {
                Node node = nodes.get(i);
                int start = b.position();
                b.put(SIGNATURE).put((byte) 1).put((byte) l).putShort((short) (node.to() - node.from()));
                b.putLong(i > 0 ? address(l, i - 1) : H5Layout.UNDEFINED);
                b.putLong(i + 1 < nodes.size() ? address(l, i + 1) : H5Layout.UNDEFINED);
                for (int c = node.from(); c < node.to(); c++) {
                    if (l == 0) {
                        key(b, chunkBytes, chunkZ[c]);
                        b.putLong(chunkAddress[c]);
                    } else {
                        key(b, chunkBytes, chunkZ[levels.get(l - 1).get(c).firstChunk()]);
                        b.putLong(address(l - 1, c));
                    }
                }
                key(b, 0, chunkZ[node.endChunk() - 1] + 1);
                H5Layout.padTo(b, start + nodeBytes);
            }
        }
    }

    private void key(ByteBuffer b, int size, long z) {
        b.putInt(size).putInt(0).putLong(z);
        for (int d = 1; d <= rank; d++) b.putLong(0);
    }
}
