package org.tomospark.job.run;

/** The software version, from the jar manifest when packaged. */
public final class Version {
    private Version() {
    }

    public static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
