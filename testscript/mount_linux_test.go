package testscript_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// canMount reports whether this process may mount file systems (root, or
// a user namespace that allows it), for the scripts that need a full or a
// read-only one: [mount].
var canMount = sync.OnceValue(func() bool {
	dir, err := os.MkdirTemp("", "fuzzmin-mount")
	if err != nil {
		return false
	}
	defer os.Remove(dir)
	if syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4096") != nil {
		return false
	}
	syscall.Unmount(dir, 0)
	return true
})

// cmdTmpfs mounts a small file system over a directory: "tmpfs dir size"
// mounts a tmpfs of size bytes (whole pages) at dir, which holds what dir
// held, so that writing more than fits fails for want of space; "tmpfs dir
// size ro" makes it read-only, which stops root too. It is unmounted when
// the script ends. Scripts that use it start with [!mount] skip.
func cmdTmpfs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 || len(args) == 3 && args[2] != "ro" {
		ts.Fatalf("usage: tmpfs dir size [ro]")
	}
	dir := ts.MkAbs(args[0])
	size, err := strconv.Atoi(args[1])
	ts.Check(err)
	des, err := os.ReadDir(dir)
	ts.Check(err)
	files := map[string][]byte{}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(dir, de.Name()))
		ts.Check(err)
		files[de.Name()] = b
	}
	ts.Check(syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)))
	ts.Defer(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	for name, b := range files {
		ts.Check(os.WriteFile(filepath.Join(dir, name), b, 0o666))
	}
	if len(args) == 3 {
		ts.Check(syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, "size="+strconv.Itoa(size)))
	}
}

// cmdPin makes a file impossible to remove or rename: "pin file" mounts
// the file over itself (a bind mount), so that unlinking it fails (EBUSY),
// for root too, while it can be read. It is unmounted when the script
// ends. Scripts that use it start with [!mount] skip.
func cmdPin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pin file")
	}
	file := ts.MkAbs(args[0])
	ts.Check(syscall.Mount(file, file, "", syscall.MS_BIND, ""))
	ts.Defer(func() { syscall.Unmount(file, syscall.MNT_DETACH) })
}

// withShm runs a program with a /dev/shm of its own, a tmpfs of a given
// size, as in a container: "withshm 4m fuzzmin args..." (a program of the
// script's, from PATH). The test binary runs itself again in a mount
// namespace of its own, where it mounts the tmpfs and then becomes the
// program: the machine's /dev/shm, which other tests use, is not touched.
// Scripts that use it start with [!mount] skip.
func withShm(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: withshm size program [args...]")
		return 2
	}
	const inside = "FUZZMIN_TEST_WITHSHM"
	if os.Getenv(inside) == "" {
		cmd := exec.Command("/proc/self/exe")
		cmd.Args = append([]string{"withshm"}, args...) // testscript runs its programs by this name
		cmd.Env = append(os.Environ(), inside+"=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			fmt.Fprintln(os.Stderr, "withshm:", err)
			return 2
		}
		return 0
	}
	// Mounts made here must not reach the machine's namespace.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		fmt.Fprintln(os.Stderr, "withshm: making mounts private:", err)
		return 2
	}
	if err := syscall.Mount("tmpfs", "/dev/shm", "tmpfs", 0, "size="+args[0]); err != nil {
		fmt.Fprintln(os.Stderr, "withshm: mounting /dev/shm:", err)
		return 2
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "withshm:", err)
		return 2
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, inside+"=") })
	err = syscall.Exec(path, args[1:], env)
	fmt.Fprintln(os.Stderr, "withshm:", err)
	return 2
}
