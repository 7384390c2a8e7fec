// Package synth generates synthetic rigid-job workloads with the model of
// Lublin and Feitelson, "The workload on parallel supercomputers: modeling
// the characteristics of rigid jobs", JPDC 63(11), 2003 (the PWA "Lublin99"
// model), written as SWF. Sections cited as §N are those of the
// implementation notes the package was written from, and D1–D12 its
// decisions; docs/decisions.md maps both to the paper (Lublin–Feitelson).
//
// Each job has a type (batch or interactive, SWF field 15 = 1 or 0), an
// arrival from its type's gamma log-inter-arrival stream stretched by a
// 48-bucket daily cycle (§3.4), a size (serial, power-of-two or other
// parallel, log2 size from a two-stage uniform, §3.2) and a run time whose
// log is a hyper-gamma mixture with a size-dependent mixing probability
// (§3.3). Typeless mode uses the single whole-log parameter set (§2.2).
// TargetLoad scales the arrival shape of both types by the factor that gives
// the requested offered load (§8, the authors' documented knob).
//
// Deviations from the reference C, as the spec recommends: a floating clock
// (the C's integer clock drifts and erases the daily cycle, §9), a PCG
// generator from math/rand/v2, and per-type size bounds derived from the
// machine size (§7). With Source: newDrand48(seed) and CompatClock the
// output is the C's, bit for bit (the spec's §10.3 golden vectors are tests).
//
// Optionally field 9 is filled with user estimates by a Config.Estimator, a
// one-method interface this package declares and does not implement:
// estmodel.Modal{} is the modal model (Tsafrir 2005; E_max = max(longest
// run time, 1 h) as the parallelworkloads wrapper does, spec §13).
//
// examples/synth/README.md tabulates the model statistics against the
// spec and against the Lublin 256-node log of the reference C.
//
// A Generator is not safe for concurrent use.
package synth
