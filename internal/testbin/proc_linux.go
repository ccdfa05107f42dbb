package testbin

import (
	"os/exec"
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
