package org.tomospark.job.fs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The check that a run against a kerberized HDFS holds credentials before it touches it. Without a ticket Hadoop fails
 * at the first call to the namenode with "Client cannot authenticate via:[TOKEN, KERBEROS]", deep in an input's opening
 * or an output's claim; this says what is missing and what to do, before anything is read or written.
 */
public final class KerberosCredentials {
    /** Schemes served by HDFS's namenodes: they authenticate by Kerberos when the configuration says so. */
    private static final Set<String> HDFS_SCHEMES = Set.of("hdfs", "webhdfs", "swebhdfs", "viewfs");
    private static final String AUTHENTICATION = CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION;

    private KerberosCredentials() {
    }

    /**
     * Throws where the configuration asks for Kerberos, one of {@code uris} (paths without a scheme are on
     * {@code fs.defaultFS}; a list file's leading '@' is skipped) is on HDFS, and the current user has neither Kerberos
     * credentials (a kinit ticket or a keytab login) nor delegation tokens (as a YARN container is given). Every engine
     * asks before it opens anything (the direct engine, the Spark driver's plan, a batch), whoever called it.
     */
    public static void require(Configuration conf, List<String> uris) {
        String auth = conf.get(AUTHENTICATION, "simple");
        if (!auth.equalsIgnoreCase("kerberos")) return;
        URI hdfs = firstOnHdfs(conf, uris);
        if (hdfs == null) return;
        UserGroupInformation.setConfiguration(conf);
        UserGroupInformation user;
        try {
            user = UserGroupInformation.getCurrentUser();
        } catch (IOException e) {
            throw new UncheckedIOException("HDFS at " + hdfs + " requires Kerberos (" + AUTHENTICATION + "=kerberos), and this "
                    + "process's user could not be found: " + e.getMessage(), e);
        }
        if (user.hasKerberosCredentials() || !user.getCredentials().getAllTokens().isEmpty()) return;
        String message = "HDFS at " + hdfs + " requires Kerberos (" + AUTHENTICATION + "=kerberos) and this process "
                + "has no Kerberos ticket (user " + user.getUserName() + "): run kinit, or set kerberos.principal and "
                + "kerberos.keytab";
        throw new UncheckedIOException(message, new IOException(message));
    }

    private static URI firstOnHdfs(Configuration conf, List<String> uris) {
        for (String u : uris) {
            if (u == null || u.isBlank()) continue;
            String s = u.startsWith("@") ? u.substring(1) : u;
            URI uri;
            try {
                uri = new Path(s).toUri();
            } catch (IllegalArgumentException e) {
                continue; // no path Hadoop can parse: the run refuses it, naming it, before it reaches any file system
            }
            URI fs = uri.getScheme() == null ? FileSystem.getDefaultUri(conf) : uri;
            if (fs.getScheme() != null && HDFS_SCHEMES.contains(fs.getScheme().toLowerCase(Locale.ROOT)))
                return URI.create(fs.getScheme() + "://" + (fs.getAuthority() == null ? "" : fs.getAuthority()));
        }
        return null;
    }
}
