/**
 * HDF5 filters that jhdf lacks, registered with it through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.jhdf.filter.Filter}): Blosc (32001) and Zstd (32015), with codecs from aircompressor and
 * the JDK, and bitshuffle (32008), which replaces jhdf's own (faster, and with Zstd).
 */
package org.tomospark.executor.inputs.filter;
