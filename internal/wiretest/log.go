package wiretest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edgar13f/edgar13f/internal/throttle"
)

// A Log is the client side of a wire test, in the order things happened:
// the starts each spacer granted (with the times it recorded under its
// lock), the starts it took back, the connections dialed and the requests
// written on them. Each event is noted after what caused it and before what
// it causes (a start before the hook that waits for it returns, a
// connection before the transport gets it, a request before its first byte
// is written), so the order is that of cause and effect, whatever the
// scheduler does.
type Log struct {
	mu     sync.Mutex
	events []event
	conns  int
}

// An event is one entry of a Log.
type event struct {
	kind   string    // "grant", "retake" (the start at is given back), "dial", "write"
	at     time.Time // grant, retake: the start as the spacer recorded it
	conn   int       // dial, write: the connection
	path   string    // write: the request's path
	spacer int       // grant, retake: which spacer
}

func (l *Log) note(e event) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e.kind == "dial" {
		l.conns++
		e.conn = l.conns
	}
	l.events = append(l.events, e)
	return e.conn
}

// Spacer returns sp noting in l every start it grants and every start it
// is asked to take back, as spacer id (one per spacer: starts are matched
// to the spacer that granted them).
func (l *Log) Spacer(sp *throttle.Spacer, id int) *Spacer {
	return &Spacer{sp: sp, log: l, id: id}
}

// A Spacer is a throttle.Spacer that notes in a Log every start it grants
// and every start it is asked to take back (Retake moves a start or gives
// it up for a new one; either way the old one is spent).
type Spacer struct {
	sp  *throttle.Spacer
	log *Log
	id  int
}

// Take takes a start as throttle.Spacer.Take does, and notes it.
func (s *Spacer) Take(ctx context.Context) (time.Time, error) {
	at, err := s.sp.Take(ctx)
	if err == nil {
		s.log.note(event{kind: "grant", at: at, spacer: s.id})
	}
	return at, err
}

// Wait takes a start as Take does.
func (s *Spacer) Wait(ctx context.Context) error {
	_, err := s.Take(ctx)
	return err
}

// Retake moves the start t or takes a new one, as
// throttle.Spacer.RetakeAt does, and notes t as given back and the start
// it returns as granted.
func (s *Spacer) Retake(ctx context.Context, t time.Time) error {
	if !t.IsZero() {
		s.log.note(event{kind: "retake", at: t, spacer: s.id})
	}
	at, err := s.sp.RetakeAt(ctx, t)
	if err == nil {
		s.log.note(event{kind: "grant", at: at, spacer: s.id})
	}
	return err
}

// Dial dials addr and notes the connection in l (see Conn); it fits
// http.Transport.DialContext.
func (l *Log) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return l.Conn(conn), nil
}

// Conn notes conn in l as dialed and returns it noting every request
// written on it: each request of these tests (a GET without a body) goes
// out in one Write of the transport's buffer, which begins with the
// request line.
func (l *Log) Conn(conn net.Conn) net.Conn {
	return loggedConn{conn, l, l.note(event{kind: "dial"})}
}

// A loggedConn notes in a Log every request written on it.
type loggedConn struct {
	net.Conn
	log *Log
	id  int
}

func (c loggedConn) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("GET ")) {
		path, _, _ := strings.Cut(strings.TrimPrefix(string(p), "GET "), " ")
		c.log.note(event{kind: "write", conn: c.id, path: path})
	}
	return c.Conn.Write(p)
}

// Check matches every request written to a start of its own: one granted
// before the request was written and, unless anyConn, after its
// connection was dialed (so that a start taken ahead of a slow dial must
// have moved to the moment the request went out), and never given back (a
// start given back to Retake was spent on nothing). It returns the starts
// kept (granted and not given back), the number of requests written, and
// a description of the first request left without a start.
func (l *Log) Check(anyConn bool) (kept []time.Time, writes int, unmatched string) {
	l.mu.Lock()
	events := slices.Clone(l.events)
	l.mu.Unlock()
	givenBack := map[int]bool{} // grant events whose start was given back
	for i, e := range events {
		if e.kind != "retake" {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if g := events[j]; g.kind == "grant" && g.spacer == e.spacer && g.at.Equal(e.at) {
				givenBack[j] = true
				break
			}
		}
	}
	dialed := map[int]int{}
	spent := map[int]bool{}
	for i, e := range events {
		switch e.kind {
		case "grant":
			if !givenBack[i] {
				kept = append(kept, e.at)
			}
		case "dial":
			dialed[e.conn] = i
		case "write":
			writes++
			// Each request may use the starts between its lower bound and
			// itself; taken in the order written, each takes the earliest
			// start open to it, which finds a match for all if one exists.
			from := 0
			if !anyConn {
				from = dialed[e.conn]
			}
			j := from
			for ; j < i; j++ {
				if events[j].kind == "grant" && !givenBack[j] && !spent[j] {
					break
				}
			}
			if j == i {
				if unmatched == "" {
					unmatched = fmt.Sprintf("request %d (%s, on connection %d) was written without a start of its own", writes, e.path, e.conn)
				}
				continue
			}
			spent[j] = true
		}
	}
	return kept, writes, unmatched
}
