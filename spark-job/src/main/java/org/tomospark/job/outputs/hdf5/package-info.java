/**
 * A small writer of one HDF5 file holding one chunked three-dimensional dataset and its attributes, written front to
 * back to a stream, so that a volume larger than memory is assembled one chunk at a time and through any file system.
 * It writes only what that needs, in the HDF5 format's oldest versions, which every HDF5 library since 1.6 reads
 * (h5py, Fiji's HDF5 plugins, MATLAB, IDL):
 * <ul>
 *   <li><b>superblock</b>, version 0, at address 0: 8-byte addresses and lengths, the B-tree sizes (group leaf K 4,
 *       group internal K 16; chunk B-trees then use K 32), the end-of-file address, and the root group's symbol table
 *       entry, which caches the root group's B-tree and local heap addresses;</li>
 *   <li><b>root group</b>: a version 1 object header with one symbol table message; a version 1 group B-tree node (type
 *       0) with one child, a symbol table node ({@code SNOD}) with one entry, the dataset; and a local heap
 *       ({@code HEAP}) holding the names ("" for the root and the dataset's);</li>
 *   <li><b>dataset</b>: a version 1 object header with a dataspace (version 1, [slices][height][width], maximum equal),
 *       a datatype (IEEE float 16/32 or unsigned 16-bit integer, little-endian), a fill value (version 2: NaN or 0,
 *       what unwritten chunks read as), a data layout message (version 3, chunked, chunks of [1][height][width]) and
 *       one attribute message (version 1) per attribute: variable-length UTF-8 strings, 64-bit floats and
 *       integers, scalars or one-dimensional arrays;</li>
 *   <li><b>global heap</b>: one collection ({@code GCOL}) holding the strings' bytes, which the string attributes
 *       refer to by the collection's address and the object's index;</li>
 *   <li><b>chunk index</b>: a version 1 B-tree of type 1, leaves pointing at the chunks, internal levels above them
 *       when there are more chunks than one node holds (64); each key holds the chunk's size, a filter mask of 0 and
 *       its offset in elements (z, 0, 0, 0), the last key of a node the offset just past its last chunk;</li>
 *   <li><b>chunks</b>: the slices' little-endian samples, uncompressed, in z order, after all the metadata.</li>
 * </ul>
 * Every size and address is known before the first byte is written, because the chunks are uncompressed: the
 * metadata is computed first and the chunks are streamed after it. The package depends on nothing of the project.
 */
package org.tomospark.job.outputs.hdf5;
