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


def simulate_node(args, sizes, storage_read, storage_write):
    """Seconds for one node to reconstruct one scan: tasks of group.rows rows through read, GPU, host, write."""
    groups = max(1, args.rows // args.group_rows)
    frac = 1.0 / groups
    slots = args.task_slots
    gpu_slots = args.gpus_per_node * args.tasks_per_device
    # per-task stage demands (seconds at full node bandwidth) -- read and write share the node's bandwidth between
    # the tasks in the stage (processor sharing); the GPU stage is k GPUs shared by tasksPerDevice tasks each
    read = sizes["in"] * frac / storage_read
    gpu = sizes["gu"] * frac / (args.gpu_tus * 1e12)
    host = sizes["out"] * frac / (args.host_gbs * 1e9)
    write = sizes["out"] * frac / storage_write
    t = 0.0
    events = []
    ready = list(range(groups))
    running = 0
    # stage state: remaining work of each task in the sharing stages
    reading, writing, gpu_queue, gpu_busy = {}, {}, [], 0
    done = 0

    def start_tasks():
        nonlocal running
        while ready and running < slots:
            g = ready.pop(0)
            reading[g] = read
            running += 1

    start_tasks()
    while done < groups:
        # next completion among sharing stages (rate 1/n each) and GPU/host events
        nr, nw = len(reading), len(writing)
        cand = []
        if nr:
            g = min(reading, key=reading.get)
            cand.append((reading[g] * nr, "read", g))
        if nw:
            g = min(writing, key=writing.get)
            cand.append((writing[g] * nw, "write", g))
        if events:
            cand.append((events[0][0] - t, "event", None))
        dt, kind, g = min(cand, key=lambda x: x[0])
        for k in reading:
            reading[k] -= dt / nr
        for k in writing:
            writing[k] -= dt / nw
        t += dt
        if kind == "read":
            del reading[g]
            gpu_queue.append(g)
        elif kind == "write":
            del writing[g]
            running -= 1
            done += 1
            start_tasks()
        else:
            _, what, g = heapq.heappop(events)
            if what == "gpu":
                gpu_busy -= 1
                # host work (encode, checksum) runs on the task's threads before the bytes go out
                heapq.heappush(events, (t + host, "host", g))
            else:
                writing[g] = write
        while gpu_queue and gpu_busy < gpu_slots:
            g = gpu_queue.pop(0)
            gpu_busy += 1
            heapq.heappush(events, (t + gpu * args.tasks_per_device, "gpu", g))
    return t


def storage_per_node(args, nodes):
    """Read and write bandwidth one node gets from HDFS when all `nodes` run at once (bytes/s)."""
    disk = args.disk_gbs * 1e9
    nic = args.nic_gbs * 1e9
    rep = args.replication
    # every node is a datanode: it serves reads of its blocks and stores `rep` copies of what the cluster writes.
    # Per node and per output byte: rep disk writes and (rep-1) network transfers; per input byte one disk read and,
    # with the data spread evenly, a network transfer unless local (fraction 1/nodes local at best, data locality aside)
    remote = 1.0 - 1.0 / nodes
    return disk, nic, rep, remote


def node_scan_seconds(args, sizes, nodes):
    disk, nic, rep, remote = storage_per_node(args, nodes)
    # bandwidth a node gives to the stages, with disks and NIC shared by reads and replicated writes in proportion
    # to their bytes (read: in; write: rep x out on disk, (rep-1+remote) x out on the wire)
    disk_bytes = sizes["in"] + rep * sizes["out"]
    nic_bytes = remote * sizes["in"] + (rep - 1 + remote) * sizes["out"]
    t_disk = disk_bytes / disk
    t_nic = nic_bytes / nic if nic_bytes else 0.0
    storage_t = max(t_disk, t_nic)
    storage_read = sizes["in"] / storage_t * (sizes["in"] + sizes["out"]) / (sizes["in"] + sizes["out"])
    # effective per-stage bandwidths that reproduce storage_t when the stages share it
    share = storage_t
    read_bw = (sizes["in"] + sizes["out"]) / share
    t = simulate_node(args, sizes, read_bw, read_bw)
    bound = {
        "gpu": sizes["gu"] / (args.gpus_per_node * args.gpu_tus * 1e12),
        "host": sizes["out"] / (args.host_gbs * 1e9),
        "disk": t_disk,
        "network": t_nic,
    }
    return t, bound, storage_read


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
        t = simulate_node(local, sizes, 46e9, 2.05e9)
        print(f"one H200, 2048^3, local disk: model {t:.1f} s (GPU alone {gpu:.1f} s, writes alone "
              f"{sizes['out'] / 2.05e9:.1f} s); measured job 12.5 s direct, 15.1 s Spark local mode")
        return
    scans = args.petabytes * 1e15 / sizes["in"]
    print(f"{scans:.0f} scans of {args.angles} x {args.rows} x {args.columns} "
          f"({sizes['in'] / 1e9:.1f} GB in, {sizes['out'] / 1e9:.1f} GB out each), {args.gpus_per_node} GPUs per node, "
          f"HDFS replication {args.replication:g}")
    print("| nodes | s per scan per node | bound (GPU / host / disk / network s) | days for all |")
    print("|---|---|---|---|")
    for n in (int(x) for x in args.nodes.split(",")):
        t, bound, _ = node_scan_seconds(args, sizes, n)
        worst = max(bound, key=bound.get)
        days = scans / n * t / 86400
        b = " / ".join(f"{bound[k]:.1f}" for k in ("gpu", "host", "disk", "network"))
        print(f"| {n} | {t:.1f} | {worst} ({b}) | {days:.1f} |")


if __name__ == "__main__":
    main()
