# Sourced by submit/env.sh (and by tests): the class-data archive of the launch classpath. Needs JAVA_BIN, TOMO_CP,
# CPFILE, TOMO_JVM_OPTS and TOMO_CDS_ARCHIVE.
# Class data sharing: the JVM maps the classes a run loads (Spark's, Hadoop's, Scala's, the project's) from an
# archive instead of parsing and verifying them again, which saves seconds of CPU at every start on a small machine.
# tomo_cds (called by submit/tomospark) adds the flags to TOMO_JVM_OPTS: map the archive where it is fresh, else
# write it as this run exits (TOMO_CDS_DUMP: under a temporary name, renamed into place by the launch script, one
# run at a time). TOMO_CDS=0 turns it off. A JVM that cannot map the archive runs without it.
TOMO_CDS_DUMP=""
tomo_cds() {
  [ "${TOMO_CDS:-1}" = 1 ] || return 0
  # the archive holds for the jars it was written from: any jar of the classpath rebuilt since makes it stale
  local fresh=0 f
  if [ -f "$TOMO_CDS_ARCHIVE" ] && [ "$TOMO_CDS_ARCHIVE" -nt "$CPFILE" ]; then
    fresh=1
    for f in $(echo "$TOMO_CP" | tr ':' ' '); do
      if [ "$f" -nt "$TOMO_CDS_ARCHIVE" ]; then fresh=0; break; fi
    done
  fi
  if [ "$fresh" = 1 ]; then
    TOMO_JVM_OPTS="$TOMO_JVM_OPTS -XX:SharedArchiveFile=$TOMO_CDS_ARCHIVE -Xlog:cds=off -Xlog:cds+dynamic=off"
    return 0
  fi
  # an archive is written on top of the JVM's own base archive: a runtime without one (a jlink image, some JDK builds)
  # cannot write it, and a JVM asked to would not start at all
  "$JAVA_BIN" -Xshare:on -version >/dev/null 2>&1 || return 0
  # a lock left by a run that was killed while writing is stale after ten minutes
  find "$TOMO_CDS_ARCHIVE.lock" -maxdepth 0 -mmin +10 -exec rm -rf {} \; 2>/dev/null || true
  if mkdir "$TOMO_CDS_ARCHIVE.lock" 2>/dev/null; then
    TOMO_CDS_DUMP="$TOMO_CDS_ARCHIVE.lock/archive.jsa"
    TOMO_JVM_OPTS="$TOMO_JVM_OPTS -XX:ArchiveClassesAtExit=$TOMO_CDS_DUMP -Xlog:cds=off -Xlog:cds+dynamic=off"
  fi
}
