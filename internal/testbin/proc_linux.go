package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// dieWithParent has the system send sig to the command when fuzzmin dies,
// even by SIGKILL, which gives no chance to clean up: a go command gets
// SIGINT and removes its temporary files, a test binary is killed. (The
// signal is tied to the thread that started the command; the Go runtime
// does not end threads that are not locked.) Call it after
// setProcessGroup.
func dieWithParent(cmd *exec.Cmd, sig syscall.Signal) {
	cmd.SysProcAttr.Pdeathsig = sig
}

// rss returns the resident memory of process pid in bytes, as
// /proc/<pid>/statm counts it in pages, or 0 if it cannot tell.
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// fuzzCoordinators returns the processes of the process group pgid that
// coordinate a go test -fuzz run: test binaries run with -test.fuzz, not
// the workers they start (-test.fuzzworker).
func fuzzCoordinators(pgid int) []int {
	des, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil || pid == pgid {
			continue
		}
		stat, err := os.ReadFile("/proc/" + de.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + de.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := strings.Split(string(cmdline), "\x00")
		if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-test.fuzz=") }) &&
			!slices.Contains(args, "-test.fuzzworker") {
			pids = append(pids, pid)
		}
	}
	return pids
}
