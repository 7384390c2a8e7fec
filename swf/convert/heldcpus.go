package convert

// noteHeldCPUs is the rule of heldCPUs in Report.Anomalies.
const noteHeldCPUs = "demand: more CPUs held than requested (--exclusive or whole cores), those kept"

// heldCPUs gives an accounting record's demand, read from its request,
// the CPUs its allocation held when they are more (allocCPUs; 0 or less:
// none recorded). A job run with --exclusive, or on an OverSubscribe=
// EXCLUSIVE partition, or whose request Slurm rounded up to whole cores or
// sockets (CR_Core, CR_Socket), asked for cpu=1 and held its node's 64: a
// demand of 1 core let a simulation pack other jobs beside it, which
// Slurm never did, and contradicted the log's own allocated processors.
// A request without a CPU count takes the job's processors (makeDemand)
// and is left so.
func heldCPUs(in *demandIn, allocCPUs int64, note func(string)) {
	if in.cpus > 0 && allocCPUs > in.cpus && allocCPUs <= maxProcs {
		note(noteHeldCPUs)
		in.cpus = allocCPUs
	}
}
