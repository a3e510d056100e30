package emulator

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// watchdog runs "$@" in the background with the Go process's pipe closed
// to it, and a reader that blocks on that pipe (kept on fd 3), whose write
// end only the Go process holds. End of file (stop closed it, or the Go
// process died) makes the reader send SIGTERM, and 10 s later SIGKILL, to
// the child's process group and to the watchdog's own. The main shell waits
// for the child; once the child is gone, for whatever reason, it SIGKILLs
// both groups (itself included), so nothing the child forked survives it.
//
// Two groups because gcloud moves itself (and so its java) into a new group
// of its own unless it leads a session; the watchdog leads a new session
// instead, which gcloud cannot leave, and stop checks that session.
// SIGTERM is ignored by the watchdog's own shells, set after the child
// started so the child keeps the default.
const watchdog = `exec 3<&0
"$@" </dev/null 3<&- &
child=$!
trap '' TERM INT
( read -r _ <&3 || :
  kill -TERM -$child 2>/dev/null; kill -TERM -$$ 2>/dev/null
  sleep 10
  kill -KILL -$child 2>/dev/null; kill -KILL -$$ ) </dev/null &
exec 3<&-
wait "$child"
kill -KILL -$child 2>/dev/null
kill -KILL -$$`

// stopTimeout bounds how long stop waits for the group to go before it
// sends SIGKILL itself.
const stopTimeout = 15 * time.Second

// proc is one emulator process tree under the watchdog, in a new session
// whose id (the watchdog's pid) is sid.
type proc struct {
	cmd      *exec.Cmd
	sid      int
	lifeline *os.File // write end of the watchdog's stdin
	logPath  string
	exited   chan struct{} // closed when the watchdog has exited
	waitErr  error         // valid after exited is closed
}

// startProc starts name with args under the watchdog, in dir, with env added
// to the current environment; its stdout and stderr go to a new temporary
// log file whose name starts with logPrefix.
func startProc(name string, args []string, dir string, env []string, logPrefix string) (*proc, error) {
	logFile, err := os.CreateTemp("", logPrefix+"-*.log")
	if err != nil {
		return nil, fmt.Errorf("emulator: log file: %w", err)
	}
	defer logFile.Close()
	r, w, err := os.Pipe()
	if err != nil {
		os.Remove(logFile.Name())
		return nil, fmt.Errorf("emulator: lifeline pipe: %w", err)
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", watchdog, "watchdog", name}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = r
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		os.Remove(logFile.Name())
		return nil, fmt.Errorf("emulator: start %s: %w", name, err)
	}
	p := &proc{cmd: cmd, sid: cmd.Process.Pid, lifeline: w, logPath: logFile.Name(), exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop ends every process of the session and waits until none is alive. It
// is safe to call more than once. It returns an error only if a process of
// the session is still alive after SIGKILL.
func (p *proc) stop() error {
	p.lifeline.Close()
	select {
	case <-p.exited:
	case <-time.After(stopTimeout):
		killSession(p.sid)
		<-p.exited
	}
	// The watchdog is gone; a process that changed its group may linger.
	deadline := time.Now().Add(5 * time.Second)
	for sessionAlive(p.sid) {
		if time.Now().After(deadline) {
			killSession(p.sid)
			time.Sleep(200 * time.Millisecond)
			if pids, _ := sessionMembers(p.sid); len(pids) > 0 {
				return fmt.Errorf("emulator: processes %v of session %d alive after SIGKILL", pids, p.sid)
			}
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// signal sends sig to every live process of the session except the
// watchdog's own shells (which must keep watching the lifeline). For
// SIGSTOP it returns once every thread of those processes is stopped:
// kill(2) only queues the stop, and a request sent right after could be
// answered by a thread not stopped yet (a pause test read its document
// back once, on a loaded machine).
func (p *proc) signal(sig syscall.Signal) error {
	pids, err := sessionMembers(p.sid)
	if err != nil {
		return fmt.Errorf("emulator: list processes: %w", err)
	}
	var sent []int
	for _, pid := range pids {
		if pid == p.sid || isShell(pid) {
			continue
		}
		if err := syscall.Kill(pid, sig); err == nil {
			sent = append(sent, pid)
		}
	}
	if len(sent) == 0 {
		return fmt.Errorf("emulator: no process of session %d to signal", p.sid)
	}
	if sig != syscall.SIGSTOP {
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range sent {
		for !stopped(pid) {
			if time.Now().After(deadline) {
				return fmt.Errorf("emulator: process %d not stopped 5 s after SIGSTOP", pid)
			}
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// stopped reports whether every thread of pid is stopped (state T), or
// pid is gone.
func stopped(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return true // exited
	}
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/stat")
		if err != nil {
			continue // the thread exited
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || i+2 >= len(s) {
			continue
		}
		if st := s[i+2]; st != 'T' && st != 't' && st != 'Z' && st != 'X' {
			return false
		}
	}
	return true
}

// isShell reports whether pid runs /bin/sh (the watchdog's shells).
func isShell(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return err == nil && (strings.TrimSpace(string(b)) == "sh" || strings.TrimSpace(string(b)) == "dash")
}

// killSession sends SIGKILL to every live process of session sid, and to
// process group sid in case /proc cannot be read.
func killSession(sid int) {
	syscall.Kill(-sid, syscall.SIGKILL)
	pids, _ := sessionMembers(sid)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// log returns the emulator's output so far, at most the last max bytes.
func (p *proc) log(max int64) string {
	f, err := os.Open(p.logPath)
	if err != nil {
		return fmt.Sprintf("(log %s unreadable: %v)", p.logPath, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		f.Seek(fi.Size()-max, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

// head returns the emulator's output so far, at most the first max bytes.
func (p *proc) head(max int64) string {
	f, err := os.Open(p.logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, max))
	return string(b)
}

// sessionAlive reports whether any process of session sid is alive (zombies
// do not count). It reads /proc; without /proc it falls back to
// kill(-sid, 0), which sees only the watchdog's own group.
func sessionAlive(sid int) bool {
	pids, err := sessionMembers(sid)
	if err != nil {
		return !errors.Is(syscall.Kill(-sid, 0), syscall.ESRCH)
	}
	return len(pids) > 0
}

// sessionMembers lists the pids of the live (non-zombie) processes of
// session sid, from /proc.
func sessionMembers(sid int) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		// Fields after the parenthesised command: state ppid pgrp session ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[3]); err == nil && g == sid {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}
