#!/usr/bin/env python3
"""One line per report.json: the job, its timeline and stage busy seconds, for the device tool's short output.

    python3 benchmarks/report_lines.py REPORT.json...
"""
import json
import sys


def num(d, k):
    v = d.get(k)
    return f"{v:.2f}" if isinstance(v, (int, float)) else "-"


for path in sys.argv[1:]:
    try:
        r = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"{path}: unreadable ({e})")
        continue
    t = r.get("timings", {})
    g = r.get("groups", {}) if isinstance(r.get("groups"), dict) else {}
    parts = [path.split("/")[-1], f"engine {r.get('engine')}", f"wall {num(t, 'wallSeconds')}", f"job {num(t, 'jobSeconds')}",
             f"jvm@start {num(t, 'jvmUptimeAtStartSeconds')}", f"outside {num(t, 'outsideJobSeconds')}",
             f"finish {num(t, 'finishSeconds')}",
             "busy r/p/bp/w " + "/".join(num(t, k) for k in ("readSeconds", "preprocessSeconds", "backprojectSeconds",
                                                              "writeSeconds"))]
    gl = t.get("groupLoop")
    if isinstance(gl, dict):
        parts.append(f"{gl.get('lanes')} lane(s) first/readwait/proc/sink " + "/".join(
            num(gl, k) for k in ("firstReadSeconds", "readWaitSeconds", "processSeconds", "sinkSeconds")))
    if g:
        parts.append("first/span/after " + "/".join(num(g, k) for k in ("toFirstTaskSeconds", "taskSpanSeconds",
                                                                      "afterLastTaskSeconds")))
        parts.append("launch/deser/plan " + "/".join(num(g, k) for k in ("firstLaunchSeconds", "taskDeserializeSecondsMax",
                                                                       "planFetchSecondsMax")))
        parts.append(f"setupMax {num(g, 'setupSecondsMax')} gpuBusy {num(g, 'gpuBusyFraction')}")
    b = r.get("backend", {})
    parts.append(f"{b.get('variant', '')}")
    print(" | ".join(parts))
