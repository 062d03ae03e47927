# Sourced by submit/env.sh (and by tests): the class-data archive of the launch classpath. Needs JAVA_BIN, TOMO_CP,
# CPFILE, TOMO_JVM_OPTS and TOMO_CDS_ARCHIVE.
# Class data sharing: the JVM maps the classes a run loads (Spark's, Hadoop's, Scala's, the project's) from an
# archive instead of parsing and verifying them again, which saves seconds of CPU at every start on a small machine.
# tomo_cds (called by submit/tomospark) adds the flags to TOMO_JVM_OPTS: map the archive where it is fresh, else
# write it as this run exits (TOMO_CDS_DUMP: under a temporary name, put into place by tomo_cds_finish, one run at a
# time). TOMO_CDS=0 turns it off. A JVM that cannot map the archive runs without it.
TOMO_CDS_DUMP=""
TOMO_CDS_LIST=""
TOMO_CDS_BASE_OPTS=""
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
  # a lock left by a run that was killed while writing is stale after ten minutes
  find "$TOMO_CDS_ARCHIVE.lock" -maxdepth 0 -mmin +10 -exec rm -rf {} \; 2>/dev/null || true
  mkdir "$TOMO_CDS_ARCHIVE.lock" 2>/dev/null || return 0
  TOMO_CDS_DUMP="$TOMO_CDS_ARCHIVE.lock/archive.jsa"
  TOMO_CDS_BASE_OPTS="$TOMO_JVM_OPTS"
  if "$JAVA_BIN" -Xshare:on -version >/dev/null 2>&1; then
    # written at the run's exit, on top of the JVM's own base archive
    TOMO_JVM_OPTS="$TOMO_JVM_OPTS -XX:ArchiveClassesAtExit=$TOMO_CDS_DUMP -Xlog:cds=off -Xlog:cds+dynamic=off"
  else
    # a runtime without a base archive (a jlink image, some JDK builds) cannot write one at exit, and a JVM asked to
    # would not start: the run lists the classes it loads, and tomo_cds_finish dumps a static archive from that list
    TOMO_CDS_LIST="$TOMO_CDS_ARCHIVE.lock/classes.lst"
    TOMO_JVM_OPTS="$TOMO_JVM_OPTS -Xshare:off -XX:DumpLoadedClassList=$TOMO_CDS_LIST"
  fi
}

# After a run that was to write the archive (TOMO_CDS_DUMP set), whatever its status: dumps the static archive from its
# class list where that is the way, puts the archive in place whole, and drops the lock.
tomo_cds_finish() {
  [ -n "$TOMO_CDS_DUMP" ] || return 0
  if [ -n "$TOMO_CDS_LIST" ] && [ -s "$TOMO_CDS_LIST" ]; then
    "$JAVA_BIN" $TOMO_CDS_BASE_OPTS -Xshare:dump -XX:SharedClassListFile="$TOMO_CDS_LIST" \
      -XX:SharedArchiveFile="$TOMO_CDS_DUMP" -cp "$TOMO_CP" >/dev/null 2>&1 || rm -f "$TOMO_CDS_DUMP"
  fi
  if [ -s "$TOMO_CDS_DUMP" ]; then mv -f "$TOMO_CDS_DUMP" "$TOMO_CDS_ARCHIVE"; fi
  rm -rf "$(dirname "$TOMO_CDS_DUMP")"
}
