package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.ObjectHeader;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.dataset.DatasetLoader;
import io.jhdf.exceptions.HdfException;
import io.jhdf.storage.HdfBackingStorage;

import java.nio.BufferUnderflowException;
import java.util.List;
import java.util.Optional;

/**
 * Finds a dataset by its path. jhdf finds most; where it fails, the path is followed link by link ({@link HdfLinks}),
 * so that an object jhdf cannot read does not hide the datasets next to it, and the dataset found is read as a
 * virtual dataset, handed to jhdf alone, or refused with a message that names it and says why. A dataset that exists
 * is never reported as missing.
 */
final class HdfDatasets {
    private HdfDatasets() {
    }

    /**
     * @param file names the file in messages
     * @return the dataset, or empty where nothing is at {@code path}
     * @throws IllegalArgumentException where something is there but is not a dataset this project can read
     */
    static Optional<StoredDataset> find(HdfFile hdf, String file, String path) {
        Node node;
        try {
            node = hdf.getByPath(path);
        } catch (HdfException e) {
            return findByLinks(hdf, file, path, e);
        }
        if (!(node instanceof Dataset ds)) throw new IllegalArgumentException(file + ": " + path + " is not a dataset");
        return Optional.of(new StoredDataset(path, ds, null));
    }

    private static Optional<StoredDataset> findByLinks(HdfFile hdf, String file, String path,
            HdfException jhdfFailure) {
        HdfBackingStorage storage = hdf.getHdfBackingStorage();
        Optional<Long> address;
        try {
            address = HdfLinks.resolve(storage, hdf.getAddress(), path);
        } catch (HdfException | IllegalStateException e) {
            throw new IllegalArgumentException(file + ": cannot follow the path " + path + " (" + e.getMessage()
                    + "; jhdf: "
                    + jhdfFailure.getMessage() + ")", e);
        }
        if (address.isEmpty()) return Optional.empty();
        List<HeaderMessages.Message> messages;
        try {
            messages = HeaderMessages.read(storage, address.get());
        } catch (HdfException | IllegalStateException e) {
            throw new IllegalArgumentException(file + ": dataset " + path
                    + " has an object header that cannot be read ("
                    + e.getMessage() + "); truncated or corrupt file?", e);
        }
        for (HeaderMessages.Message m : messages) {
            if (m.type() == HeaderMessages.EXTERNAL_FILES)
                throw new IllegalArgumentException(file + ": dataset " + path
                        + " keeps its samples in external raw files (HDF5"
                        + " external storage), which tomospark does not read; copy them into the file with"
                        + " h5repack -l " + path + ":CONTI in.h5 out.h5");
            if (m.type() == HeaderMessages.LAYOUT && VirtualDataset.isVirtual(m.data()))
                return Optional.of(new StoredDataset(path, null, readVirtual(storage, file, path, messages)));
        }
        try {
            ObjectHeader oh = ObjectHeader.readObjectHeader(storage, address.get());
            Dataset ds = DatasetLoader.createDataset(storage, oh, path.substring(path.lastIndexOf('/') + 1), hdf);
            return Optional.of(new StoredDataset(path, ds, null));
        } catch (HdfException e) {
            throw new IllegalArgumentException(file + ": dataset " + path + " exists but cannot be read ("
                    + e.getMessage()
                    + "); rewrite it as a plain contiguous dataset with h5repack -l " + path + ":CONTI in.h5 out.h5",
                    e);
        }
    }

    private static VirtualDataset readVirtual(HdfBackingStorage storage, String file, String path,
            List<HeaderMessages.Message> messages) {
        try {
            return VirtualDataset.read(storage, messages);
        } catch (IllegalArgumentException | HdfException | IndexOutOfBoundsException | BufferUnderflowException e) {
            throw new IllegalArgumentException(file + ": dataset " + path + " is a virtual dataset with "
                    + e.getMessage()
                    + ", which tomospark cannot map; make it a plain dataset with h5repack -l " + path
                    + ":CONTI in.h5 out.h5", e);
        }
    }
}
