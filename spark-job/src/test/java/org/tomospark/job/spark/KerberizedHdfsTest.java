package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.job.ExitCode;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import java.net.URI;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs against a kerberized HDFS ({@link KerberizedHdfs}): reconstruct (direct engine and embedded Spark) and reprocess
 * from the user's keytab (kerberos.principal, kerberos.keytab), as a scheduled job runs, give the local reference's
 * slices bit for bit; without a ticket a run fails naming Kerberos and leaves nothing at its destination. Hadoop's
 * login user and the JVM's Kerberos configuration are process-wide: this class runs in a surefire execution of its own.
 */
@Tag("kerberos")
class KerberizedHdfsTest {
    private static KerberizedHdfs hdfs;
    private static Configuration conf;
    /** The test's own identity for its checks (a login of its own: the process's login user is the CLI's to make). */
    private static UserGroupInformation tester;

    @BeforeAll
    static void start() throws Exception {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        java.nio.file.Path dir = TestScans.tmp("kerberized-hdfs");
        hdfs = KerberizedHdfs.start(dir);
        System.setProperty("java.security.krb5.conf", hdfs.krb5conf.toString());
        Configuration.addDefaultResource("kerberized-hdfs-client.xml");
        conf = new Configuration();
        UserGroupInformation.setConfiguration(conf);
        tester = UserGroupInformation.loginUserFromKeytabAndReturnUGI(KerberizedHdfs.USER, hdfs.userKeytab.toString());
        Path scan = new Path(TestScans.hdf5().toUri());
        as(() -> {
            FileSystem fs = fs();
            fs.copyFromLocalFile(scan, new Path(hdfs.base + "/scans/phantom.h5"));
            fs.copyFromLocalFile(scan, new Path(hdfs.base + "/batch/scan_a.h5"));
            fs.copyFromLocalFile(scan, new Path(hdfs.base + "/batch/scan_b.h5"));
            return null;
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (hdfs != null) hdfs.close();
    }

    /** Every run starts as a fresh process does: no login user yet, and no kinit ticket. */
    @BeforeEach
    void freshLogin() {
        UserGroupInformation.reset();
        UserGroupInformation.setConfiguration(conf);
    }

    @Test
    @Timeout(120)
    void reconstructsFromAKeytabOnBothEngines() throws Exception {
        for (String engine : List.of("direct", "spark")) {
            UserGroupInformation.reset();
            String out = hdfs.base + "/rec/" + engine;
            CliRun r = CliRun.of("reconstruct", "--engine", engine, "--input", hdfs.base + "/scans/phantom.h5", "--output", out,
                    "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "job.progress=false",
                    "--conf", "kerberos.principal=" + KerberizedHdfs.USER, "--conf", "kerberos.keytab=" + hdfs.userKeytab);
            assertEquals(0, r.code(), r.err());
            assertEquals(KerberizedHdfs.USER, UserGroupInformation.getLoginUser().getUserName(), "the CLI logged in");
            assertTrue(UserGroupInformation.getLoginUser().hasKerberosCredentials());
            TestScans.assertBitIdentical(TestScans.reference(), as(() -> TestScans.readSlices(out, conf)));
            assertTrue(as(() -> fs().exists(new Path(out, "_SUCCESS"))), engine);
        }
    }

    @Test
    @Timeout(120)
    void reprocessesFromAKeytab() throws Exception {
        String root = hdfs.base + "/rec-batch";
        CliRun r = CliRun.of("reprocess", hdfs.base + "/batch", "--output-root", root, "--center", "47.5", "--filter",
                "shepp-logan", "--backend", "java", "--conf", "job.progress=false",
                "--conf", "kerberos.principal=" + KerberizedHdfs.USER, "--conf", "kerberos.keytab=" + hdfs.userKeytab);
        assertEquals(0, r.code(), r.err());
        for (String scan : List.of("scan_a", "scan_b"))
            TestScans.assertBitIdentical(TestScans.reference(), as(() -> TestScans.readSlices(root + "/" + scan, conf)));
        Map<String, Object> report = as(() -> {
            try (var in = fs().open(new Path(root, "batch-report.json"))) {
                return Json.read(in.readAllBytes(), "batch-report.json");
            }
        });
        List<?> scans = (List<?>) report.get("scans");
        assertEquals(2, scans.size(), report.toString());
        for (Object o : scans) assertEquals("reconstructed", ((Map<?, ?>) o).get("status"), o.toString());
    }

    @Test
    @Timeout(60)
    void withoutATicketNothingIsWritten() throws Exception {
        String out = hdfs.base + "/rec/no-ticket";
        CliRun r = CliRun.of("reconstruct", "--input", hdfs.base + "/scans/phantom.h5", "--output", out, "--center", "47.5",
                "--backend", "java");
        assertEquals(ExitCode.ENVIRONMENT.code(), r.code(), r.err());
        assertTrue(r.err().contains("error: HDFS at " + hdfs.base + " requires Kerberos (hadoop.security.authentication=kerberos)")
                && r.err().contains("run kinit, or set kerberos.principal and kerberos.keytab"), r.err());
        assertFalse(UserGroupInformation.getCurrentUser().hasKerberosCredentials());
        assertFalse(as(() -> fs().exists(new Path(out))), "nothing at the destination");
        // the Spark engine's driver asks too (as it does for a notebook's or SparkMain's run)
        CliRun spark = CliRun.of("reconstruct", "--engine", "spark", "--input", hdfs.base + "/scans/phantom.h5", "--output", out,
                "--center", "47.5", "--backend", "java", "--conf", "job.progress=false");
        assertEquals(ExitCode.ENVIRONMENT.code(), spark.code(), spark.err());
        assertTrue(spark.err().contains("requires Kerberos (hadoop.security.authentication=kerberos)"), spark.err());
        assertFalse(as(() -> fs().exists(new Path(out))), "nothing at the destination");

        String root = hdfs.base + "/rec-batch-no-ticket";
        CliRun b = CliRun.of("reprocess", hdfs.base + "/batch", "--output-root", root, "--center", "47.5");
        assertEquals(ExitCode.ENVIRONMENT.code(), b.code(), b.err());
        assertTrue(b.err().contains("requires Kerberos"), b.err());
        assertFalse(as(() -> fs().exists(new Path(root))), "nothing at the batch's destination");
    }

    @Test
    void keytabSettingsAreCheckedBeforeAnyLogin() throws Exception {
        String out = hdfs.base + "/rec/bad-keys";
        CliRun alone = CliRun.of("reconstruct", "--input", hdfs.base + "/scans/phantom.h5", "--output", out,
                "--conf", "kerberos.principal=" + KerberizedHdfs.USER);
        assertEquals(ExitCode.BAD_INPUT.code(), alone.code(), alone.err());
        assertTrue(alone.err().contains("config key kerberos.keytab: not set, but kerberos.principal is"), alone.err());
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        java.nio.file.Path missing = hdfs.userKeytab.resolveSibling("missing.keytab");
        assertFalse(Files.exists(missing));
        CliRun absent = CliRun.of("reconstruct", "--input", hdfs.base + "/scans/phantom.h5", "--output", out,
                "--conf", "kerberos.principal=" + KerberizedHdfs.USER, "--conf", "kerberos.keytab=" + missing);
        assertEquals(ExitCode.BAD_INPUT.code(), absent.code(), absent.err());
        assertTrue(absent.err().contains("config key kerberos.keytab: invalid value '" + missing + "': keytab file "
                + missing.toAbsolutePath() + " does not exist"), absent.err());
        assertFalse(as(() -> fs().exists(new Path(out))));
    }

    private static FileSystem fs() throws Exception {
        return FileSystem.get(URI.create(hdfs.base), conf);
    }

    /** Runs {@code action} as the test's own Kerberos identity. */
    private static <T> T as(PrivilegedExceptionAction<T> action) throws Exception {
        return tester.doAs(action);
    }
}
