package org.tomospark.job.cli;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.security.UserGroupInformation;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line's own Kerberos login from a keytab ({@code kerberos.principal}, {@code kerberos.keytab}), as a
 * scheduled job needs it: no one runs kinit for it. Hadoop keeps the login user process-wide in
 * {@link UserGroupInformation}, so every FileSystem the run opens afterwards (the direct engine's, embedded Spark's
 * driver and local tasks) authenticates as that principal, and Hadoop's RPC client logs in again from the keytab when
 * the ticket expires. Under spark-submit, Spark's own --principal and --keytab do this instead.
 */
final class KerberosLogin {
    private KerberosLogin() {
    }

    /**
     * Logs in as the settings' principal where both keys are set, before any file system is touched; does nothing
     * where neither is (a kinit ticket, or no Kerberos). Returns whether it logged in.
     */
    static boolean login(Settings s, Configuration conf) throws IOException {
        String principal = s.get(JobKeys.KERBEROS_PRINCIPAL);
        String keytab = s.get(JobKeys.KERBEROS_KEYTAB);
        if (principal.isEmpty() && keytab.isEmpty()) return false;
        if (principal.isEmpty())
            throw new IllegalArgumentException("config key " + JobKeys.KERBEROS_PRINCIPAL.name() + ": not set, but "
                    + JobKeys.KERBEROS_KEYTAB.name() + " is: give both (the principal whose keys the keytab holds) or neither");
        if (keytab.isEmpty())
            throw new IllegalArgumentException("config key " + JobKeys.KERBEROS_KEYTAB.name() + ": not set, but "
                    + JobKeys.KERBEROS_PRINCIPAL.name() + " is: give both (the keytab holding " + principal + "'s keys) or neither");
        Path file = Path.of(keytab);
        if (!Files.isRegularFile(file))
            throw JobKeys.KERBEROS_KEYTAB.invalid(keytab, "keytab file " + file.toAbsolutePath() + " does not exist", null);
        if (!Files.isReadable(file))
            throw JobKeys.KERBEROS_KEYTAB.invalid(keytab, "keytab file " + file.toAbsolutePath()
                    + " is not readable by this user", null);
        String auth = conf.get(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "simple");
        // with simple authentication Hadoop ignores a keytab login without a word, and HDFS then refuses the run
        if (!auth.equalsIgnoreCase("kerberos"))
            throw new IllegalArgumentException("config key " + JobKeys.KERBEROS_PRINCIPAL.name() + " is set, but the Hadoop "
                    + "configuration says " + CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION + "=" + auth
                    + ": put the cluster's core-site.xml and hdfs-site.xml on the classpath (HADOOP_CONF_DIR)");
        UserGroupInformation.setConfiguration(conf);
        try {
            UserGroupInformation.loginUserFromKeytab(principal, file.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new IOException("Kerberos login as " + principal + " from keytab " + file.toAbsolutePath() + " failed: "
                    + e.getMessage(), e);
        }
        return true;
    }
}
