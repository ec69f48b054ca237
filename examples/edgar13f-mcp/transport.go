package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transport is the server's MCP transport over standard input and output:
// newline-delimited JSON-RPC messages and batches, as the SDK's
// [mcp.IOTransport] speaks them, with two differences:
//
//   - a line that is not one JSON-RPC message or batch is dropped with a
//     note on log, so that one malformed line cannot end the session;
//   - it encodes each message the SDK hands it itself (with the SDK's
//     [jsonrpc.EncodeMessage]), writing every answer in place of its
//     placeholder (see answers.go).
//
// It is built only on the SDK's public transport API, the extension point
// the SDK documents for transport authors: [mcp.Transport],
// [mcp.Connection], and package jsonrpc's message types, [jsonrpc.EncodeMessage]
// and [jsonrpc.DecodeMessage].
type transport struct {
	in      io.ReadCloser
	out     io.Writer
	log     io.Writer
	answers *answers
}

// Connect implements [mcp.Transport]. It starts reading in, so that Close
// can end a Read waiting for input.
func (t *transport) Connect(context.Context) (mcp.Connection, error) {
	c := &conn{
		in:       t.in,
		out:      t.out,
		answers:  t.answers,
		incoming: make(chan frame),
		closed:   make(chan struct{}),
		inits:    map[jsonrpc.ID]bool{},
		batches:  map[jsonrpc.ID]*batch{},
	}
	go c.readLoop(bufio.NewReader(t.in), t.log)
	return c, nil
}

// batchesEndIn is the first protocol version that has no JSON-RPC batches.
const batchesEndIn = "2025-06-18"

// conn is the [mcp.Connection] of a transport. Its batches are the
// SDK's: a batch of calls is answered with one array of their responses,
// written when the last of them is, and a batch after a session agreed on
// batchesEndIn or later ends the session as the SDK's stdio transport does.
type conn struct {
	in      io.Closer
	out     io.Writer
	answers *answers

	incoming  chan frame // from readLoop
	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error

	queue []jsonrpc.Message // the rest of the last batch read; Reads are serial

	writeMu sync.Mutex // makes each Write whole on out

	mu      sync.Mutex // guards the fields below
	version string     // the protocol version agreed by initialize, once answered
	inits   map[jsonrpc.ID]bool
	batches map[jsonrpc.ID]*batch // the batch of each call not answered yet
}

// frame is what one input line carries: a message, or a batch of them.
type frame struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error // the input failed or ended; no more frames follow
}

// batch is an incoming batch's calls and their responses.
type batch struct {
	unanswered map[jsonrpc.ID]int // the index in responses of each call not answered yet
	responses  []*jsonrpc.Response
}

// SessionID implements [mcp.Connection]: stdio has no session ids.
func (c *conn) SessionID() string { return "" }

// Read implements [mcp.Connection].
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) == 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f := <-c.incoming:
			if f.err != nil {
				return nil, f.err
			}
			if f.batch {
				if err := c.addBatch(f.msgs); err != nil {
					return nil, err
				}
			}
			c.queue = f.msgs
		}
	}
	msg := c.queue[0]
	c.queue = c.queue[1:]
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "initialize" {
		c.mu.Lock()
		c.inits[req.ID] = true
		c.mu.Unlock()
	}
	return msg, nil
}

// addBatch records the calls of an incoming batch, or refuses the batch
// as the SDK's stdio transport does (which ends the session). Unlike that
// transport, it waits for no response to a notification in the batch.
func (c *conn) addBatch(msgs []jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version >= batchesEndIn {
		return fmt.Errorf("JSON-RPC batching is not supported in %s and later (request version: %s)", batchesEndIn, c.version)
	}
	b := &batch{unanswered: map[jsonrpc.ID]int{}}
	for _, msg := range msgs {
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			continue
		}
		if _, ok := b.unanswered[req.ID]; ok {
			return fmt.Errorf("duplicate message ID %v in a batch", req.ID.Raw())
		}
		if _, ok := c.batches[req.ID]; ok {
			return fmt.Errorf("batch contains previously seen request %v", req.ID.Raw())
		}
		b.unanswered[req.ID] = len(b.responses)
		b.responses = append(b.responses, nil)
	}
	for id := range b.unanswered {
		c.batches[id] = b
	}
	return nil
}

// Write implements [mcp.Connection]: it writes msg as one line, or keeps a
// response to a call of a batch until the batch's last response.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	var data []byte
	var err error
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.noteVersion(resp)
		if responses, inBatch := c.answerBatch(resp); inBatch {
			if responses == nil {
				return nil // more of the batch to come
			}
			data, err = encodeBatch(responses)
		}
	}
	if data == nil && err == nil {
		if data, err = jsonrpc.EncodeMessage(msg); err != nil {
			err = fmt.Errorf("marshaling message: %v", err)
		}
	}
	if err != nil {
		return err
	}
	return c.answers.write(c.out, append(data, '\n'))
}

// noteVersion records the protocol version of resp if it answers the
// session's initialize call, as the SDK tells its own stdio transport.
func (c *conn) noteVersion(resp *jsonrpc.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.inits[resp.ID] {
		return
	}
	delete(c.inits, resp.ID)
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if resp.Error == nil && c.version == "" && json.Unmarshal(resp.Result, &res) == nil {
		c.version = res.ProtocolVersion
	}
}

// answerBatch records resp in the batch of its call, if any. It reports
// whether resp belongs to a batch, with every response of the batch if
// resp was its last.
func (c *conn) answerBatch(resp *jsonrpc.Response) ([]*jsonrpc.Response, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	delete(c.batches, resp.ID)
	b.responses[b.unanswered[resp.ID]] = resp
	delete(b.unanswered, resp.ID)
	if len(b.unanswered) > 0 {
		return nil, true
	}
	return b.responses, true
}

// encodeBatch encodes responses as one JSON array, as the SDK's stdio
// transport does.
func encodeBatch(responses []*jsonrpc.Response) ([]byte, error) {
	raw := make([]json.RawMessage, 0, len(responses))
	for _, r := range responses {
		m, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return nil, fmt.Errorf("encoding batch message: %w", err)
		}
		raw = append(raw, m)
	}
	return json.Marshal(raw)
}

// Close implements [mcp.Connection]: it closes the input and ends a Read
// waiting for it. Standard output stays open.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.in.Close()
		close(c.closed)
	})
	return c.closeErr
}

// readLoop sends the frames of r to c.incoming until r fails or ends, or c
// is closed.
func (c *conn) readLoop(r *bufio.Reader, log io.Writer) {
	for {
		var f frame
		f.msgs, f.batch, f.err = nextFrame(r, log)
		select {
		case c.incoming <- f:
		case <-c.closed:
			return
		}
		if f.err != nil {
			return
		}
	}
}

// maxLine bounds one inbound JSON-RPC line, as the SDK's stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

// nextFrame returns the messages of the next line of r that is a JSON-RPC
// message or batch, dropping every other line with a note on log.
func nextFrame(r *bufio.Reader, log io.Writer) ([]jsonrpc.Message, bool, error) {
	for {
		line, err := readLine(r, log)
		if len(line) > 0 {
			if msgs, isBatch, ok := parseFrame(line, log); ok {
				return msgs, isBatch, nil
			}
		}
		if err != nil {
			return nil, false, err
		}
	}
}

// readLine returns the next line of r without its end, or nil for one
// longer than maxLine.
func readLine(r *bufio.Reader, log io.Writer) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				tooLong, line = true, nil
				fmt.Fprintf(log, "edgar13f-mcp: ignoring an input line longer than %d bytes\n", maxLine)
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

// parseFrame decodes line, one JSON-RPC message or a batch of them, or
// reports on log why it is neither.
func parseFrame(line []byte, log io.Writer) ([]jsonrpc.Message, bool, bool) {
	items := []json.RawMessage{line}
	isBatch := line[0] == '['
	if isBatch {
		if err := json.Unmarshal(line, &items); err != nil || len(items) == 0 {
			fmt.Fprintf(log, "edgar13f-mcp: ignoring a malformed JSON-RPC batch (%d bytes)\n", len(line))
			return nil, false, false
		}
	} else if !json.Valid(line) {
		// jsonrpc.DecodeMessage reads the first JSON value of its input
		// and ignores what follows it.
		fmt.Fprintf(log, "edgar13f-mcp: ignoring a line that is not one JSON value (%d bytes)\n", len(line))
		return nil, false, false
	}
	msgs := make([]jsonrpc.Message, len(items))
	for i, it := range items {
		msg, err := jsonrpc.DecodeMessage(it)
		if err != nil {
			fmt.Fprintf(log, "edgar13f-mcp: ignoring a malformed JSON-RPC line (%d bytes): %v\n", len(line), err)
			return nil, false, false
		}
		msgs[i] = msg
	}
	return msgs, isBatch, true
}
