package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;

/** Settings shared by the tests' in-process HDFS clusters (MiniDFSCluster). */
public final class MiniHdfs {
    private MiniHdfs() {
    }

    /** The namenode's and datanode's ports on the loopback address only, each on a free port. */
    public static Configuration onLoopback(Configuration conf) {
        conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        return conf;
    }
}
