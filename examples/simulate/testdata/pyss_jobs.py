# Runs pyss as its run_simulator.py does and prints its per-job schedule,
# which pyss itself does not: one line per job in termination order,
#   job_id submit start end run estimate procs
# Usage (python 2): python2 pyss_jobs.py PYSS_SRC TRACE.swf P SCHEDULER
# with PYSS_SRC pyss's src directory and SCHEDULER EasyBackfillScheduler or
# EasyPlusPlusScheduler. See peers.txt.
import sys
sys.path.insert(0, sys.argv[1])
from base.workload_parser import parse_lines
from base.prototype import _job_inputs_to_jobs
from schedulers.simulator import Simulator
from schedulers.easy_scheduler import EasyBackfillScheduler
from schedulers.easy_plus_plus_scheduler import EasyPlusPlusScheduler

P = int(sys.argv[3])
scheduler = {"EasyBackfillScheduler": EasyBackfillScheduler,
             "EasyPlusPlusScheduler": EasyPlusPlusScheduler}[sys.argv[4]](P)
jobs = list(_job_inputs_to_jobs(parse_lines(open(sys.argv[2])), P))
sim = Simulator(jobs, P, scheduler)
sim.run()
for j in sim.terminated_jobs:
    sys.stdout.write("%d %d %d %d %d %d %d\n" % (j.id, j.submit_time, j.start_to_run_at_time,
                     j.finish_time, j.actual_run_time, j.user_estimated_run_time, j.num_required_processors))
