# Sourced by submit/env.sh (and by tests): JVM settings for a machine of two cores or fewer (a laptop's VM, a CI
# runner), where the JVM's defaults, made for larger machines, cost a short run seconds. There G1's concurrent threads
# and C2's compiler thread each take a core from the run, and a short run's collections copy its band and slice arrays
# again and again through a young generation sized for 1/64 of the memory. So the run gets:
#  - the serial collector (unless TOMO_JAVA_OPTS names a collector);
#  - an initial heap of an eighth of the memory, so that the young generation holds a group's arrays (the maximum stays
#    as set elsewhere; a smaller maximum caps it);
#  - C2 thresholds ten times the default: start-up code that never runs again (Spark's class readers, method-handle
#    spinning, Hadoop's XML parser) stays with C1, while the kernels' loops reach C2 within milliseconds as before.
# Measured in BENCHMARKS.md ("The launch on two cores"). TOMO_SMALL_MACHINE=0 turns it off, =1 forces it, auto (the
# default) asks nproc.
tomo_small_machine_opts() {
  local mode="${TOMO_SMALL_MACHINE:-auto}" cpus
  case "$mode" in
    0) return 0 ;;
    1) ;;
    auto) cpus=$(nproc 2>/dev/null || echo 4); [ "$cpus" -le 2 ] || return 0 ;;
    *) echo "tomospark: TOMO_SMALL_MACHINE=$mode: use 0, 1 or auto" >&2; return 0 ;;
  esac
  # a collector the user names (-XX:+Use…GC, one word of TOMO_JAVA_OPTS) wins: the JVM refuses two
  local opts="-XX:+UseSerialGC " w words=()
  read -ra words <<< "${TOMO_JAVA_OPTS:-}"
  for w in ${words[@]+"${words[@]}"}; do case "$w" in -XX:+Use*GC) opts="" ;; esac; done
  echo "${opts}-XX:InitialRAMPercentage=12.5 -XX:Tier4InvocationThreshold=50000 -XX:Tier4MinInvocationThreshold=6000" \
    "-XX:Tier4CompileThreshold=150000 -XX:Tier4BackEdgeThreshold=400000"
}
