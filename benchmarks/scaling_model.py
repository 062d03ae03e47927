#!/usr/bin/env python3
"""A model of archive reprocessing past one node: scans on N nodes of k GPUs each, reading from and writing to HDFS.

usage: scaling_model.py [--check] [--petabytes PB] [--angles A --rows R --columns C] [--gpus-per-node K] ...

Each Spark task takes one slice group (group.rows detector rows) through four stages: read its band, correct it,
back-project it on a GPU, write its slices. Within a node the stages overlap (tasks run concurrently, a GPU runs
job.tasksPerDevice tasks at once); so a node's time for a scan is bounded by its slowest stage, plus the pipeline's
fill and drain. The simulation below runs the tasks of one scan through per-node stage servers, event by event:
  - read and write draw on the node's share of the cluster's storage bandwidth (HDFS: each output byte is written
    `replication` times, to disks of several nodes, and crosses the network replication-1 times),
  - the GPU stage has k x tasksPerDevice slots, each running at (GPU rate / tasksPerDevice),
  - the host stage (correction, encoding, checksums) has the node's cores.
Each scan is its own Spark job, and pays a fixed part on every node: the job's time to its first task and its
processors' set-up (made for one scan's geometry and centre, on pinned buffers the device keeps from the scan before).
Stage rates are the ones measured on the GPU machines (BENCHMARKS.md, "The real path" and "A standalone GPU cluster");
the storage figures are parameters (defaults: a typical HDFS node with 12 disks and 25 GbE).
--check compares the model with those measurements.
"""
import argparse
import heapq


def scan_sizes(a, r, c, out_bytes_per_voxel):
    return {
        "in": 2.0 * a * r * c,                    # uint16 projections
        "out": out_bytes_per_voxel * r * c * c,   # slices of c x c
        "gu": float(r) * c * c * a,               # voxel updates
    }


def simulate_node(args, sizes, read_bw, write_bw, shared_storage=False):
    """Seconds for one node to reconstruct one scan: its bounding stage, plus the pipeline's fill and drain.

    Within a node the stages of all tasks overlap: each task is itself a conveyor (reads, device work and commits of
    successive chunks run at once), and task_slots tasks run concurrently. So the node runs at the rate of its slowest
    stage, each stage's rate being the smaller of the node's capacity and what its concurrent tasks reach:
      - read: the node's read bandwidth, or task_read_gbs per task;
      - GPU: gpu_tus per GPU, for as many GPUs as there are tasks to keep them busy;
      - host (encoding, checksums, the commit's copies into the page cache): host_gbs per node, or task_host_gbs
        per task. Measured: a task reaches about 0.35 GB/s, and the node about 3 GB/s whether it has 16 or 32 cores,
        so four tasks per GPU leave the host stage short of tasks, and more cores do not raise the node's rate;
      - write: the storage's bandwidth; with shared_storage, reads and writes draw on one bandwidth (read_bw).
    Fill and drain: one group's passage through the stages at a single task's rates. Then the job's fixed part
    (args.job_fixed_seconds).
    """
    host_bw = args.host_gbs * 1e9
    groups = max(1, -(-args.rows // args.group_rows))
    tasks = tasks_in_flight(args, sizes)
    gpu_rate = args.gpu_tus * 1e12
    task_read, task_host = args.task_read_gbs * 1e9, args.task_host_gbs * 1e9
    stage = {
        "read": sizes["in"] / min(read_bw, tasks * task_read),
        "gpu": sizes["gu"] / (min(args.gpus_per_node, tasks) * gpu_rate),
        "host": sizes["out"] / min(host_bw, tasks * task_host),
        "write": sizes["out"] / write_bw,
    }
    if shared_storage:
        stage["write"] = (sizes["in"] + sizes["out"]) / read_bw
    fill = (sizes["in"] / task_read + sizes["gu"] / gpu_rate + sizes["out"] / task_host) / groups
    return max(stage.values()) + fill + args.job_fixed_seconds


def tasks_in_flight(args, sizes):
    """Concurrent tasks on a node: its task slots, the GPUs' task limit, and the scan's groups bound it."""
    groups = max(1, -(-args.rows // args.group_rows))
    return min(args.task_slots, args.gpus_per_node * args.tasks_per_device, groups)


def storage_per_node(args, nodes):
    """A node's disk and network bandwidth (bytes/s), the replication, and the share of input read from other nodes.

    Every node is a datanode: it serves reads of its blocks and stores `replication` copies of what the cluster
    writes. Per output byte: `replication` disk writes and replication-1 network transfers; per input byte one disk
    read and, with the blocks spread evenly and no locality, a network transfer for all but 1/nodes of it.
    """
    return args.disk_gbs * 1e9, args.nic_gbs * 1e9, args.replication, 1.0 - 1.0 / nodes


def node_scan_seconds(args, sizes, nodes):
    disk, nic, rep, remote = storage_per_node(args, nodes)
    # bandwidth a node gives to the stages, with disks and NIC shared by reads and replicated writes in proportion
    # to their bytes (read: in; write: rep x out on disk, (rep-1+remote) x out on the wire)
    disk_bytes = sizes["in"] + rep * sizes["out"]
    nic_bytes = remote * sizes["in"] + (rep - 1 + remote) * sizes["out"]
    t_disk = disk_bytes / disk
    t_nic = nic_bytes / nic if nic_bytes else 0.0
    storage_t = max(t_disk, t_nic)
    # one bandwidth that the read and write stages share, so that moving a scan's bytes takes storage_t
    shared_bw = (sizes["in"] + sizes["out"]) / storage_t
    t = simulate_node(args, sizes, shared_bw, shared_bw, shared_storage=True)
    bound = {
        "gpu": sizes["gu"] / (args.gpus_per_node * args.gpu_tus * 1e12),
        "host": sizes["out"] / min(args.host_gbs * 1e9, tasks_in_flight(args, sizes) * args.task_host_gbs * 1e9),
        "disk": t_disk,
        "network": t_nic,
    }
    return t, bound


CHECKS = (
    # (case, GPUs, tasks per GPU, rows, GPU TU/s, fixed s, measured job seconds), BENCHMARKS.md, 2026-11-27: four H100s
    # of one host (64 cores, 16 a Worker), 32-row groups, output on a RAM disk, the fallback kernel; GPU TU/s is each
    # run's updates per second of its device-stage busy time summed over its tasks (uploads, correction, filter,
    # back-projection, downloads; the report's backprojectSeconds); fixed: the job's time to its first task plus its
    # slowest processor set-up, both from the run's report
    ("2048 x 1024 x 2048, local mode, one H100", 1, 2, 1024, 1.84, 0.86 + 0.70, "4.64"),
    ("2048 x 1024 x 2048, one Worker of one H100", 1, 2, 1024, 2.15, 0.31 + 0.79, "5.44"),
    ("2048 x 1024 x 2048, two Workers of one H100 each", 2, 2, 1024, 2.02, 0.35 + 0.81, "4.09"),
    ("2048 x 1024 x 2048, four Workers of one H100 each", 4, 2, 1024, 1.49, 0.34 + 0.72, "3.40"),
    ("2048^3, one Worker of one H100", 1, 2, 2048, 2.15, 0.25 + 0.76, "8.44"),
    ("2048^3, two Workers of one H100 each", 2, 2, 2048, 2.06, 0.16 + 0.85, "6.10"),
    # two H100s of one host (32 cores, 16 a Worker), the slices downloaded straight into their frames, 2026-11-28
    ("2048 x 1024 x 2048, local mode, one H100 (frames)", 1, 2, 1024, 2.46, 1.00 + 0.51, "4.11"),
    ("2048 x 1024 x 2048, one Worker of one H100 (frames)", 1, 2, 1024, 2.72, 0.16 + 0.89, "3.71"),
    ("2048 x 1024 x 2048, two Workers of one H100 each (frames)", 2, 2, 1024, 2.62, 0.19 + 0.88, "2.98"),
)


def check(args):
    """The model against measured Spark jobs on the four-H100 node (each run's own GPU rate and fixed part)."""
    print("| case | model s | measured job s |")
    print("|---|---|---|")
    for case, gpus, per_gpu, rows, tus, fixed, measured in CHECKS:
        a = argparse.Namespace(**vars(args))
        a.gpus_per_node, a.tasks_per_device, a.task_slots = gpus, per_gpu, gpus * (per_gpu + 1)
        a.rows, a.group_rows, a.gpu_tus, a.job_fixed_seconds = rows, 32, tus, fixed
        sizes = scan_sizes(args.angles, rows, args.columns, args.out_bytes)
        print(f"| {case} | {simulate_node(a, sizes, 46e9, 17e9):.1f} | {measured} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--petabytes", type=float, default=1.0, help="input scans in total (PB, 1e15 bytes)")
    p.add_argument("--angles", type=int, default=2048)
    p.add_argument("--rows", type=int, default=2048)
    p.add_argument("--columns", type=int, default=2048)
    p.add_argument("--out-bytes", type=int, default=4, help="bytes per output voxel: 4 float32, 2 float16/uint16")
    p.add_argument("--gpus-per-node", type=int, default=4)
    p.add_argument("--gpu-tus", type=float, default=2.6,
                   help="TU/s of one GPU for the whole device stage (uploads, correction, filter, back-projection, "
                        "downloads): 2.5-2.7 measured on the H100 for 2048 x 1024 x 2048 with the slices downloaded "
                        "straight into their frames (2026-11-28; 2.0-2.2 before, on the H200 and the H100)")
    p.add_argument("--host-gbs", type=float, default=17.0,
                   help="GB/s of output one node encodes, checksums and commits, all tasks together: 17.4 on 16 "
                        "writers and 17.7 on 64 (CommitRateBench, H100 x4 node, RAM disk; 3.0 with SHA-256 before)")
    p.add_argument("--task-host-gbs", type=float, default=17.0,
                   help="GB/s of output one task's slices are committed at: the node's writers are shared by its "
                        "tasks, so a task whose group is done has all of them (0.35 a task before)")
    p.add_argument("--task-read-gbs", type=float, default=1.8, help="GB/s one task reads from the page cache")
    p.add_argument("--disk-gbs", type=float, default=1.8, help="HDFS disk bandwidth per node, GB/s")
    p.add_argument("--nic-gbs", type=float, default=3.1, help="network per node, GB/s (25 GbE)")
    p.add_argument("--replication", type=float, default=3.0,
                   help="HDFS copies per output byte (3; 1.5 with RS-6-3 erasure coding)")
    p.add_argument("--group-rows", type=int, default=32)
    p.add_argument("--tasks-per-device", type=int, default=2, help="tasks per GPU at once: job.tasksPerDevice")
    p.add_argument("--task-slots", type=int, default=12,
                   help="concurrent tasks per node: the conveyor's G x (tasksPerDevice + 1)")
    p.add_argument("--job-fixed-seconds", type=float, default=0.3,
                   help="each scan's job in a reprocessing batch: its time to the first task and its processors' set-up "
                        "(0.04 s and 0.08 s for a batch's later scan on an H100, the pinned buffers reused; the first "
                        "job of an application pays 1.2-1.6 s and 0.9-1.0 s on a standalone cluster of two H100s)")
    p.add_argument("--nodes", default="1,4,16,64,256")
    p.add_argument("--check", action="store_true", help="compare with the measured Spark jobs on one node")
    args = p.parse_args()

    sizes = scan_sizes(args.angles, args.rows, args.columns, args.out_bytes)
    if args.check:
        check(args)
        return
    scans = args.petabytes * 1e15 / sizes["in"]
    print(f"{scans:.0f} scans of {args.angles} x {args.rows} x {args.columns} "
          f"({sizes['in'] / 1e9:.1f} GB in, {sizes['out'] / 1e9:.1f} GB out each), {args.gpus_per_node} GPUs per node, "
          f"HDFS replication {args.replication:g}")
    print("| nodes | s per scan per node | bound (GPU / host / disk / network s) | days for all |")
    print("|---|---|---|---|")
    for n in (int(x) for x in args.nodes.split(",")):
        t, bound = node_scan_seconds(args, sizes, n)
        worst = max(bound, key=bound.get)
        days = scans / n * t / 86400
        b = " / ".join(f"{bound[k]:.1f}" for k in ("gpu", "host", "disk", "network"))
        print(f"| {n} | {t:.1f} | {worst} ({b}) | {days:.1f} |")


if __name__ == "__main__":
    main()
