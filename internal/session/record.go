package session

import (
	"encoding/binary"
	"errors"
	"os"
)

// A record is what CurrentFile and BestFile hold: an 8-byte run count, a
// 4-byte length and a tuple (see [AppendTuple]), little-endian.
const recordHeader = 12

// A Recorder rewrites a record file in place, with one write at offset 0
// and no truncation: the length says where the record ends. That costs one
// system call per candidate, and a process that dies does so while running
// a candidate, not in the middle of that write.
type Recorder struct {
	f   *os.File
	buf []byte
}

// NewRecorder creates or opens the record file at path.
func NewRecorder(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	return &Recorder{f: f}, nil
}

// Write records the tuple of a candidate and the run count at which it was
// recorded.
func (r *Recorder) Write(runs int, tuple []byte) error {
	r.buf = binary.LittleEndian.AppendUint64(r.buf[:0], uint64(runs))
	r.buf = binary.LittleEndian.AppendUint32(r.buf, uint32(len(tuple)))
	r.buf = append(r.buf, tuple...)
	_, err := r.f.WriteAt(r.buf, 0)
	return err
}

// Close closes the file.
func (r *Recorder) Close() error { return r.f.Close() }

// ErrNoRecord is the error of a record file that holds no record: the
// session did not get to write one.
var ErrNoRecord = errors.New("no candidate recorded")

// ReadRecord reads the record a Recorder wrote at path.
func ReadRecord(path string) (tuple []byte, runs int, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(b) == 0 {
		return nil, 0, ErrNoRecord
	}
	if err != nil {
		return nil, 0, err
	}
	if len(b) < recordHeader {
		return nil, 0, errors.New("truncated candidate record")
	}
	runs = int(binary.LittleEndian.Uint64(b))
	n := int(binary.LittleEndian.Uint32(b[8:]))
	if len(b)-recordHeader < n {
		return nil, 0, errors.New("truncated candidate record")
	}
	return b[recordHeader : recordHeader+n], runs, nil
}
