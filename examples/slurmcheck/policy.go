package main

import "context"

// runSlurm is the Slurm policy (package sched/slurm) under the recorded
// slurm.conf and fair-share tree; nil until the policy lands.
func runSlurm(context.Context, *checked) (*simulated, error) { return nil, nil }
