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
Stage rates are the ones measured on the H200 machine (BENCHMARKS.md, "The real path" and "A standalone GPU cluster");
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


def simulate_node(args, sizes, read_bw, write_bw, host_bw=None):
    """Seconds for one node to reconstruct one scan, event by event.

    Each task (one group of group.rows rows) reads its band, waits for one of k x tasksPerDevice GPU slots (a slot runs
    at 1/tasksPerDevice of the GPU), has its slices encoded and checksummed on the host, and writes them. Reading,
    host work and writing are shared stages: the tasks in one divide its bandwidth equally. At most task_slots tasks
    are in flight; a finished task lets the next start.
    """
    host_bw = host_bw or args.host_gbs * 1e9
    groups = max(1, args.rows // args.group_rows)
    frac = 1.0 / groups
    demand = {"read": sizes["in"] * frac / read_bw, "host": sizes["out"] * frac / host_bw,
              "write": sizes["out"] * frac / write_bw}
    gpu_seconds = sizes["gu"] * frac / (args.gpu_tus * 1e12) * args.tasks_per_device
    gpu_slots = args.gpus_per_node * args.tasks_per_device
    stages = {"read": {}, "host": {}, "write": {}}
    following = {"read": "gpu", "host": "write", "write": None}
    waiting, gpu_events = [], []
    t, done, started = 0.0, 0, 0

    def start(stage, g):
        if stage == "gpu":
            waiting.append(g)
        elif stage is not None:
            stages[stage][g] = demand[stage]

    while done < groups:
        while started < groups and started - done < args.task_slots:
            start("read", started)
            started += 1
        while waiting and len(gpu_events) < gpu_slots:
            heapq.heappush(gpu_events, (t + gpu_seconds, waiting.pop(0)))
        # the next event: a shared stage's task finishing (it runs at 1/n of the stage) or a GPU slot finishing
        best = (gpu_events[0][0] - t, "gpu", None) if gpu_events else (float("inf"), None, None)
        for name, tasks in stages.items():
            if tasks:
                g = min(tasks, key=tasks.get)
                best = min(best, (tasks[g] * len(tasks), name, g), key=lambda x: x[0])
        dt, name, g = best
        for tasks in stages.values():
            n = len(tasks)
            for k in tasks:
                tasks[k] -= dt / n
        t += dt
        if name == "gpu":
            _, g = heapq.heappop(gpu_events)
            start("host", g)
        else:
            del stages[name][g]
            if following[name] is None:
                done += 1
            else:
                start(following[name], g)
    return t


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
    t = simulate_node(args, sizes, shared_bw, shared_bw)
    bound = {
        "gpu": sizes["gu"] / (args.gpus_per_node * args.gpu_tus * 1e12),
        "host": sizes["out"] / (args.host_gbs * 1e9),
        "disk": t_disk,
        "network": t_nic,
    }
    return t, bound


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--petabytes", type=float, default=1.0, help="input scans in total (PB, 1e15 bytes)")
    p.add_argument("--angles", type=int, default=2048)
    p.add_argument("--rows", type=int, default=2048)
    p.add_argument("--columns", type=int, default=2048)
    p.add_argument("--out-bytes", type=int, default=4, help="bytes per output voxel: 4 float32, 2 float16/uint16")
    p.add_argument("--gpus-per-node", type=int, default=4)
    p.add_argument("--gpu-tus", type=float, default=2.0,
                   help="TU/s of one GPU for the whole device stage (uploads, correction, filter, back-projection, "
                        "downloads): 2.0 measured on the H200 for 2048^3")
    p.add_argument("--host-gbs", type=float, default=4.0,
                   help="GB/s of output one node's cores encode and checksum (16 threads x 0.25 GB/s measured)")
    p.add_argument("--disk-gbs", type=float, default=1.8, help="HDFS disk bandwidth per node, GB/s")
    p.add_argument("--nic-gbs", type=float, default=3.1, help="network per node, GB/s (25 GbE)")
    p.add_argument("--replication", type=float, default=3.0,
                   help="HDFS copies per output byte (3; 1.5 with RS-6-3 erasure coding)")
    p.add_argument("--group-rows", type=int, default=32)
    p.add_argument("--tasks-per-device", type=int, default=2)
    p.add_argument("--task-slots", type=int, default=16, help="concurrent tasks per node")
    p.add_argument("--nodes", default="1,4,16,64,256")
    p.add_argument("--check", action="store_true", help="compare with the one-node measurements")
    args = p.parse_args()

    sizes = scan_sizes(args.angles, args.rows, args.columns, args.out_bytes)
    if args.check:
        # one H200, local disk (2.05 GB/s write, page-cache reads), measured 2026-11-23 (BENCHMARKS.md)
        local = argparse.Namespace(**vars(args))
        local.gpus_per_node, local.task_slots = 1, 16
        gpu = sizes["gu"] / (local.gpu_tus * 1e12)
        disk = simulate_node(local, sizes, 46e9, 2.05e9)
        cache = simulate_node(local, sizes, 46e9, 8e9)
        print(f"one H200, 2048^3: model {disk:.1f} s with writes at the disk's 2.05 GB/s, {cache:.1f} s into the page "
              f"cache at 8 GB/s (GPU alone {gpu:.1f} s); measured job 12.5 s direct, 15.1 s Spark local mode, "
              f"the writes landing in the page cache (no fdatasync) while it has room")
        local.rows = 512
        s512 = scan_sizes(args.angles, 512, args.columns, args.out_bytes)
        print(f"one H200, 2048 x 512 x 2048: model {simulate_node(local, s512, 46e9, 8e9):.1f} s into the page cache; "
              f"measured job 5.24 s local mode, 7.43 s on the two-executor standalone cluster")
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
