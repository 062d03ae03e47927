package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A kerberized HDFS in a JVM of its own: a KDC (MiniKdc, Apache Kerby) with the principals hdfs/localhost,
 * HTTP/localhost and a user's, and a MiniDFSCluster that authenticates its clients by Kerberos. It runs apart because
 * Hadoop keeps the login user per process: a namenode in the test's JVM would lose its own identity the moment the
 * command line under test logs in from the user's keytab. The client side's settings are in kerberized-hdfs-client.xml.
 */
final class KerberizedHdfs implements AutoCloseable {
    static final String REALM = "EXAMPLE.COM";
    static final String USER = "tomo@" + REALM;
    private static final String READY = "ready.properties";

    private final Process process;
    final String base;
    final Path userKeytab;
    final Path krb5conf;

    private KerberizedHdfs(Process process, Properties ready) {
        this.process = process;
        this.base = "hdfs://127.0.0.1:" + ready.getProperty("port");
        this.userKeytab = Path.of(ready.getProperty("userKeytab"));
        this.krb5conf = Path.of(ready.getProperty("krb5conf"));
    }

    /** Starts the KDC and the cluster in a JVM of their own, working in {@code dir}; returns once both are up. */
    static KerberizedHdfs start(Path dir) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments())
            if (a.startsWith("--add-opens") || a.startsWith("--add-modules") || a.startsWith("-Djava.io.tmpdir")) cmd.add(a);
        cmd.addAll(List.of("-Xmx1g", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                KerberizedHdfs.class.getName(), dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        Path ready = dir.resolve(READY);
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!Files.exists(ready)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the kerberized HDFS did not start (exit " + (p.isAlive() ? "none" : p.exitValue())
                        + "): " + Files.readString(dir.resolve("server.log")));
            }
            Thread.sleep(50);
        }
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(ready)) {
            props.load(r);
        }
        return new KerberizedHdfs(p, props);
    }

    /** Stops the cluster and the KDC: their JVM ends when its standard input closes. */
    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            process.destroy();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
    }

    /** The server JVM: args[0] its working folder. Writes ready.properties once up; stops when standard input closes. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Properties kdcConf = MiniKdc.createConf();
        kdcConf.setProperty(MiniKdc.ORG_NAME, "EXAMPLE");
        kdcConf.setProperty(MiniKdc.ORG_DOMAIN, "COM");
        kdcConf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
        MiniKdc kdc = new MiniKdc(kdcConf, Files.createDirectories(dir.resolve("kdc")).toFile());
        kdc.start();
        if (!kdc.getRealm().equals(REALM)) throw new IllegalStateException("KDC realm " + kdc.getRealm() + ", not " + REALM);
        File service = dir.resolve("hdfs.keytab").toFile();
        File user = dir.resolve("tomo.keytab").toFile();
        kdc.createPrincipal(service, "hdfs/localhost", "HTTP/localhost");
        kdc.createPrincipal(user, "tomo");

        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
        MiniHdfs.onLoopback(conf);
        conf.set("hadoop.security.authentication", "kerberos");
        conf.setBoolean("hadoop.security.authorization", false);
        conf.set("dfs.namenode.kerberos.principal", "hdfs/localhost@" + REALM);
        conf.set("dfs.namenode.keytab.file", service.getAbsolutePath());
        conf.set("dfs.datanode.kerberos.principal", "hdfs/localhost@" + REALM);
        conf.set("dfs.datanode.keytab.file", service.getAbsolutePath());
        conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + REALM);
        conf.set("dfs.web.authentication.kerberos.keytab", service.getAbsolutePath());
        conf.setBoolean("dfs.block.access.token.enable", true);
        // a secure datanode otherwise needs privileged ports or SASL with HTTPS on its data transfer
        conf.setBoolean("ignore.secure.ports.for.testing", true);
        // the user's files are written under / by tomo, not by the cluster's superuser
        conf.setBoolean("dfs.permissions.enabled", false);
        conf.set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        dfs.waitActive();

        Properties ready = new Properties();
        ready.setProperty("port", Integer.toString(dfs.getNameNodePort()));
        ready.setProperty("userKeytab", user.getAbsolutePath());
        ready.setProperty("krb5conf", kdc.getKrb5conf().getAbsolutePath());
        Path tmp = dir.resolve(READY + ".tmp");
        try (OutputStream o = Files.newOutputStream(tmp)) {
            ready.store(o, "kerberized HDFS");
        }
        Files.move(tmp, dir.resolve(READY));
        while (System.in.read() >= 0) {
            // runs until the test closes standard input
        }
        dfs.shutdown();
        kdc.stop();
    }
}
