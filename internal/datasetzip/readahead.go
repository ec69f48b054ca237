package datasetzip

import (
	"io"

	"github.com/klauspost/compress/flate"
)

// inflate is the zip Deflate decompressor: klauspost/compress's inflater
// is markedly faster than the standard library's on the Data Sets' TSV.
// The zip reader still checks each member's CRC-32.
func inflate(r io.Reader) io.ReadCloser { return flate.NewReader(r) }

// aheadBlock is the largest block a readAhead decompresses ahead.
const aheadBlock = 1 << 20

// readAhead reads rc in its own goroutine, a block ahead of the caller
// (at most aheadBlocks blocks in flight), so that decompressing a zip member
// overlaps with parsing it.
type readAhead struct {
	rc   io.ReadCloser
	full chan block    // filled blocks, in order
	free chan []byte   // emptied blocks
	stop chan struct{} // closed by Close
	done chan struct{} // closed when the goroutine has returned
	cur  block
	off  int
}

type block struct {
	b   []byte
	err error
}

const aheadBlocks = 3

// newReadAhead reads rc, of about size bytes, ahead.
func newReadAhead(rc io.ReadCloser, size int64) *readAhead {
	bs := int(min(max(size+1, 4<<10), aheadBlock))
	r := &readAhead{rc: rc, full: make(chan block, aheadBlocks), free: make(chan []byte, aheadBlocks),
		stop: make(chan struct{}), done: make(chan struct{})}
	for i := 0; i < aheadBlocks; i++ {
		r.free <- make([]byte, bs)
	}
	go r.run()
	return r
}

func (r *readAhead) run() {
	defer close(r.done)
	for {
		var b []byte
		select {
		case b = <-r.free:
		case <-r.stop:
			return
		}
		n, err := io.ReadFull(r.rc, b[:cap(b)])
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		select {
		case r.full <- block{b: b[:n], err: err}:
		case <-r.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader.
func (r *readAhead) Read(p []byte) (int, error) {
	for r.off == len(r.cur.b) {
		if r.cur.err != nil {
			return 0, r.cur.err
		}
		if r.cur.b != nil {
			r.free <- r.cur.b[:0]
		}
		r.cur, r.off = <-r.full, 0
	}
	n := copy(p, r.cur.b[r.off:])
	r.off += n
	return n, nil
}

// Close stops the goroutine and closes rc.
func (r *readAhead) Close() error {
	close(r.stop)
	<-r.done
	return r.rc.Close()
}
