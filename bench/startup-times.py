#!/usr/bin/env python3
# Whole-process times of lbsim commands, interleaved (bench/README.md, "Start-up": where a small run's time goes).
# usage: bench/startup-times.py REPS 'label1=cmd1' 'label2=cmd2' ...
#   Runs every command REPS times in turn; OUT in a command is replaced by a fresh run folder (deleted after).
#   Prints per label the median / min wall ms and process CPU ms (user + sys of the process and its children, so git
#   too) and the median of meta.json's wallTimeMs (the event loop and result collection). A jar built with
#   bench/startup-probe.patch applied also prints phase marks (wall since the command started, CPU of the main
#   thread and of the JIT compiler threads); without it the PROBE lines are simply absent.
# example: bench/startup-times.py 7 "k8=./lbsim run bench/scenarios/k8.yaml --out OUT --quiet"
import subprocess, sys, time, os, re, statistics, shutil, resource, shlex, tempfile
reps=int(sys.argv[1]); variants=[(a.split('=',1)[0], shlex.split(a.split('=',1)[1])) for a in sys.argv[2:]]
rows={l:[] for l,_ in variants}
loads=[]
for i in range(reps):
    loads.append(os.getloadavg()[0])
    for label,cmd in variants:
        out=os.path.join(tempfile.gettempdir(), f"lbsim-startup-{os.getpid()}")
        shutil.rmtree(out, ignore_errors=True)
        c=[x.replace("OUT", out) for x in cmd]
        env=dict(os.environ)
        r0=resource.getrusage(resource.RUSAGE_CHILDREN)
        t0=time.time_ns(); env["LBSIM_T0"]=str(t0)
        p=subprocess.run(c, env=env, capture_output=True, text=True)
        t1=time.time_ns()
        r1=resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu=(r1.ru_utime-r0.ru_utime)+(r1.ru_stime-r0.ru_stime)
        if p.returncode!=0: print(label,"exit",p.returncode,p.stderr[-500:],file=sys.stderr)
        marks={}
        for line in p.stderr.splitlines():
            m=re.match(r"PROBE (\S+) wallUs=(\d+) mainUs=(\d+) jitUs=(\d+) otherUs=(\d+)", line)
            if m: marks[m.group(1)]=tuple(int(x)/1e3 for x in m.groups()[1:])
        try:
            wt=int(re.search(r'"wallTimeMs"\s*:\s*(\d+)', open(out+"/meta.json").read()).group(1))
        except Exception: wt=None
        rows[label].append(((t1-t0)/1e6, cpu*1e3, marks, wt))
        shutil.rmtree(out, ignore_errors=True)
med=statistics.median
print(f"reps={reps} load(1min) at each round: {' '.join('%.1f'%l for l in loads)}")
for label,_ in variants:
    rs=rows[label]
    wts=[r[3] for r in rs if r[3] is not None]
    print(f"{label}: wall ms median {med([r[0] for r in rs]):.0f} (min {min(r[0] for r in rs):.0f}), CPU ms median {med([r[1] for r in rs]):.0f} (min {min(r[1] for r in rs):.0f})" + (f", meta wallTimeMs median {med(wts)}" if wts else ""))
    order=[]
    for r in rs:
        for k in r[2]:
            if k not in order: order.append(k)
    prev=(0,0,0,0)
    for k in order:
        vals=[r[2][k] for r in rs if k in r[2]]
        cur=tuple(med([v[i] for v in vals]) for i in range(4))
        print(f"  {k:9s} at wall {cur[0]:6.0f} | phase: wall {cur[0]-prev[0]:5.0f} main-cpu {cur[1]-prev[1]:5.0f} jit-cpu {cur[2]-prev[2]:5.0f}")
        prev=cur
    if order: print(f"  {'end':9s} at wall {med([r[0] for r in rs]):6.0f} | after exit mark: wall {med([r[0] for r in rs])-prev[0]:5.0f}")
