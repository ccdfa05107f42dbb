package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Temporary directories are named fuzzmin-<pid>-<what>-…, so that a run can
// remove those that a killed run (kill -9 gives no chance to clean up) left
// in the places fuzzmin uses: the temporary directory and /dev/shm.
var scratchPlaces = []string{os.TempDir(), "/dev/shm"}

// tempDir creates a temporary directory for what, named for this process.
func tempDir(parent, what string) (string, error) {
	return os.MkdirTemp(parent, fmt.Sprintf("fuzzmin-%d-%s-", os.Getpid(), what))
}

// sweepScratch removes the temporary directories of fuzzmin processes that
// no longer exist.
func sweepScratch() {
	for _, place := range scratchPlaces {
		des, err := os.ReadDir(place)
		if err != nil {
			continue
		}
		for _, de := range des {
			rest, ok := strings.CutPrefix(de.Name(), "fuzzmin-")
			if !ok || !de.IsDir() {
				continue
			}
			pidText, _, ok := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidText)
			if !ok || err != nil || pid == os.Getpid() || processExists(pid) {
				continue
			}
			os.RemoveAll(filepath.Join(place, de.Name()))
		}
	}
}
