package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
)

// readBounded reads the regular file path, if it holds at most max bytes.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathErr(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, pathErr(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s): fuzzmin imports files", fileKind(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, pathErr(err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %s (-max-size raises the limit)", byteSize(max))
	}
	return data, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// A byteSize is a flag of a number of bytes: 1048576, 1024KiB, 1MiB.
type byteSize int64

func (b byteSize) String() string {
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b >= byteSize(u.n) && int64(b)%u.n == 0 {
			return fmt.Sprintf("%d%s", int64(b)/u.n, u.suffix)
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

func (b *byteSize) Set(s string) error {
	n, unit := s, int64(1)
	for suffix, u := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if rest, ok := strings.CutSuffix(s, suffix); ok {
			n, unit = rest, u
		}
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/unit {
		return fmt.Errorf("want a number of bytes above 0, such as 1048576 or 1MiB")
	}
	*b = byteSize(v * unit)
	return nil
}
