package voicebench

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/strata-platform/strata/readapi"
)

// receiver is the loopback endpoint the status callbacks go to: it keeps,
// per call, the sequence numbers in the order they arrived, and answers
// 204.
type receiver struct {
	url string
	srv *http.Server

	mu     sync.Mutex
	seqs   map[string][]int // per call id, in arrival order
	total  int
	broken int // bodies it could not read
}

func newReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/status", seqs: map[string][]int{}}
	r.srv = readapi.NewServer(ln.Addr().String(), http.HandlerFunc(r.serve))
	go func() {
		if err := r.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err) // a loopback listener of our own does not fail
		}
	}()
	return r, nil
}

func (r *receiver) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.srv.Shutdown(ctx)
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	raw, err := io.ReadAll(req.Body)
	var p struct {
		CallID   string `json:"call_id"`
		Sequence int    `json:"sequence"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &p)
	}
	r.mu.Lock()
	if err != nil || p.CallID == "" || strconv.Itoa(p.Sequence) != req.Header.Get("Strata-Sequence") {
		r.broken++
	} else {
		r.seqs[p.CallID] = append(r.seqs[p.CallID], p.Sequence)
		r.total++
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// received is how many callbacks arrived (well formed).
func (r *receiver) received() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// of is the sequence numbers call id's callbacks arrived with, in order.
func (r *receiver) of(id string) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.seqs[id]...)
}

// InOrder reports whether got is exactly 1, 2, ..., moves: every status
// move's callback delivered once, in sequence order.
func InOrder(got []int, moves int) bool {
	if len(got) != moves {
		return false
	}
	for i, s := range got {
		if s != i+1 {
			return false
		}
	}
	return true
}
