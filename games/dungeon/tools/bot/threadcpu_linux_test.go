//go:build linux

package bot

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPU returns the CPU time of the calling OS thread, to the
// nanosecond (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): with the goroutine
// locked to its thread, the time one decision took on the CPU, whatever
// else the machine runs. (getrusage's RUSAGE_THREAD counts in scheduler
// ticks, 4 ms here: a decision of a few milliseconds read as 0 or 4.)
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// lockThread locks the goroutine to its thread (threadCPU measures it).
func lockThread() func() { runtime.LockOSThread(); return runtime.UnlockOSThread }
