"""The rollback-against-relaunch table of bench/checkpoint.sh (PARTS=rollback) from its runs' files.

Per run (WORK/rb.R.MIB.HOW.REP): the events (.events), the processes' timings on stderr (.err): the runtime's
FTHP_TRACE_ROLLBACK lines and CheckpointBench's "resumed" lines. Every time is wall clock on one host.

usage: rollback_report.py WORK REPS "RANKS..." "MIBS..."

Leaves WORK/largest.split ("PROCESSES NODES D,A,U,R,B,S": the largest job's rollback split, its smallest state) for
the model's projection (org.fthp.model.projection.RollbackScalingMain).
"""
import datetime
import json
import re
import statistics
import sys

TRACE = re.compile(r"fthp-rollback-trace native (\d+) generation \d+ announced (\d+) unwound (\d+) rebuilt (\d+)")
SPARE = re.compile(r"fthp-rollback-trace spare (\d+) assigned (\d+)")
# the process's CPU time (ms) when it heard of the rollback (a survivor) or was given its role (the spare)
TRACE_CPU = re.compile(r"fthp-rollback-trace native \d+ generation \d+ announced \d+ unwound \d+ rebuilt \d+ cpu (-?\d+)")
SPARE_CPU = re.compile(r"fthp-rollback-trace spare \d+ assigned \d+ cpu (-?\d+)")
RESUMED_CPU = re.compile(r"resumed \d+ start (\w+) body .* cpu (-?\d+)")
RESUMED = re.compile(r"resumed (\d+) start (\w+) body (\d+) registered (\d+) init (\d+) main (\d+)")

ROLLBACK_STEPS = ["detection", "agreement", "unwind", "rebuild", "body setup", "state load"]
RELAUNCH_STEPS = ["detection", "abort", "relaunch", "start", "body setup", "state load"]


def ts(e):
    return datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()


def run(base, how, ranks):
    """The run's total (kill of the last copy to the last process back in its loop) and its steps, or a reason."""
    try:
        events = [json.loads(l) for l in open(base + ".events")]
        err = open(base + ".err", errors="replace").read()
    except OSError as e:
        return None, f"no files ({e})"
    kills = [ts(e) for e in events if e["event"] == "failure-injected"]
    if len(kills) < 2:
        return None, "the kills did not happen"
    kill = max(kills)
    detected = [ts(e) for e in events if e["event"] == "failure-detected" and ts(e) >= kill - 0.001]
    rolled = [e for e in events if e["event"] == "job-rolled-back"]
    restarted = [e for e in events if e["event"] == "job-restarted"]
    # (back in the loop, body began, registered, MPI_Init returned, main began, why the body ran)
    resumed = [tuple(int(g) / 1e3 for g in (m[0], m[2], m[3], m[4], m[5])) + (m[1],)
               for m in RESUMED.findall(err)]
    if not detected or not resumed:
        return None, "no detection or no process resumed"
    # every process must be back: the survivors and the spare (2R - 1), or every relaunched process (2R)
    expected = 2 * ranks - 1 if how == "rollback" else 2 * ranks
    if len(resumed) < expected:
        failed = re.search(r"cannot fetch its piece[^\n]*", err)
        return None, f"{len(resumed)} of {expected} processes back in the loop" + (
            f" ({failed.group(0)[:90]})" if failed else "")
    detect = max(detected)
    back = max(r[0] for r in resumed)
    registered = max(r[2] for r in resumed)
    if how == "rollback":
        if not rolled or restarted:
            return None, "relaunched instead of rolling back"
        traces = [tuple(int(g) / 1e3 for g in m[1:]) for m in TRACE.findall(err)]
        spare = [int(m[1]) / 1e3 for m in SPARE.findall(err)]
        if not spare:
            return None, "no FTHP_TRACE_ROLLBACK line from the spare"
        # at 1 + 1 the spare is the only process left: nothing unwinds
        told = max([t[0] for t in traces] + spare)
        unwound = max([t[1] for t in traces] + [told])
        # the spare's engine is built when its MPI_Init returns
        spare_init = [r[3] for r in resumed if r[5] == "REPLACEMENT"]
        rebuilt = max([t[2] for t in traces] + spare_init)
        marks = [kill, detect, told, unwound, rebuilt, registered, back]
        n = len(resumed)
        # the rollback's CPU (s): a survivor's from the announcement to back in its loop, the spare's from its role
        back_cpu = RESUMED_CPU.findall(err)
        survivors_at = [int(c) for c in TRACE_CPU.findall(err)]
        spare_at = [int(c) for c in SPARE_CPU.findall(err)]
        survivors_back = [int(c) for why, c in back_cpu if why == "ROLLBACK"]
        spare_back = [int(c) for why, c in back_cpu if why == "REPLACEMENT"]
        cpu = None
        if (survivors_at and len(survivors_at) == len(survivors_back) and len(spare_at) == len(spare_back) == 1
                and min(survivors_at + spare_at) >= 0):
            cpu = {"survivor": (sum(survivors_back) - sum(survivors_at)) / len(survivors_at) / 1e3,
                   "spare": (spare_back[0] - spare_at[0]) / 1e3,
                   "all": (sum(survivors_back) + spare_back[0] - sum(survivors_at) - spare_at[0]) / 1e3}
    else:
        if not restarted:
            return None, "no relaunch"
        aborted = [ts(e) for e in events if e["event"] == "job-aborted"]
        abort = min(aborted) if aborted else detect
        inits = max(r[3] for r in resumed)
        marks = [kill, detect, abort, ts(restarted[0]), inits, registered, back]
        n = len(resumed)
    steps = [b - a for a, b in zip(marks, marks[1:])]
    return {"total": back - kill, "steps": steps, "n": n, "cpu": cpu if how == "rollback" else None}, None


def fmt(s):
    return f"{s:.2f}" if s >= 0.995 else f"{s:.3f}"


def main():
    work, reps, ranks, mibs = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
    failures = []
    largest = None
    cpu_rows = []
    print("| job | state per rank | rollback, median (range) s | relaunch, median (range) s | rollback / relaunch "
          "(median of the repetitions' ratios) | rollback split: " + ", ".join(ROLLBACK_STEPS) + " (s) "
          "| relaunch split: " + ", ".join(RELAUNCH_STEPS) + " (s) |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    for r in ranks:
        for mb in mibs:
            got = {"rollback": {}, "relaunch": {}}
            for how in got:
                for rep in range(1, reps + 1):
                    res, why = run(f"{work}/rb.{r}.{mb}.{how}.{rep}", how, int(r))
                    if res is None:
                        failures.append(f"{r}+{r}, {mb} MiB, {how}, repetition {rep}: {why}")
                    else:
                        got[how][rep] = res
            cells = []
            for how in ("rollback", "relaunch"):
                totals = sorted(x["total"] for x in got[how].values())
                cells.append(f"{fmt(statistics.median(totals))} ({fmt(totals[0])}–{fmt(totals[-1])}), "
                             f"{len(totals)} runs" if totals else "no run")
            ratios = [got["rollback"][k]["total"] / got["relaunch"][k]["total"]
                      for k in got["rollback"] if k in got["relaunch"]]
            ratio = f"{statistics.median(ratios):.3f}" if ratios else "-"
            splits = []
            for how in ("rollback", "relaunch"):
                runs = list(got[how].values())
                splits.append(", ".join(fmt(statistics.median(x["steps"][i] for x in runs))
                                        for i in range(6)) if runs else "-")
            print(f"| {r} + {r} (+ 1 spare for the rollback) | {mb} MiB | {cells[0]} | {cells[1]} | {ratio} "
                  f"| {splits[0]} | {splits[1]} |")
            runs = list(got["rollback"].values())
            cpus = [x["cpu"] for x in runs if x["cpu"] is not None]
            if cpus:
                cpu_rows.append(f"| {r} + {r} | {mb} MiB | " + " | ".join(
                    f"{statistics.median(c[k] for c in cpus):.3f}" for k in ("survivor", "spare", "all"))
                    + f" | {len(cpus)} |")
            if runs and (largest is None or (int(r), -float(mb)) > largest[0]):
                # what the model projects from: the largest job, its smallest state (R + R + 1 processes, 2 nodes)
                steps = ",".join(f"{statistics.median(x['steps'][i] for x in runs):.4f}" for i in range(6))
                largest = ((int(r), -float(mb)), f"{2 * int(r) + 1} 2 {steps}")
    if cpu_rows:
        print()
        print("The rollback's CPU (user + system, s; medians): a survivor's (mean over the survivors of a run) from the"
              " announcement, the spare's from its role, to back in the loop; all: the processes' sum")
        print()
        print("| job | state per rank | survivor | spare | all | runs |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for row in cpu_rows:
            print(row)
    if failures:
        print()
        print("Runs left out: " + "; ".join(failures))
    if largest is not None:
        with open(f"{work}/largest.split", "w") as f:
            f.write(largest[1] + "\n")


if __name__ == "__main__":
    main()
