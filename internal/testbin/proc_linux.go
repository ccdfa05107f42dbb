package testbin

import (
	"fmt"
	"os"
	"os/exec"
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
