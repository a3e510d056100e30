//go:build linux

package bot

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread (Linux's
// RUSAGE_THREAD): with the goroutine locked to its thread, the time one
// decision took on the CPU, whatever else the machine runs.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lockThread locks the goroutine to its thread (threadCPU measures it).
func lockThread() func() { runtime.LockOSThread(); return runtime.UnlockOSThread }
