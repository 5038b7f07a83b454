package devupstream

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Server is a development upstream serving on a listener of its own, for
// programs (`strata bench gateway`); tests use Start, the command Serve.
type Server struct {
	// URL is the server's base URL (http://host:port, no trailing slash);
	// an upstream configuration's base_url is URL + "/v1".
	URL  string
	srv  *http.Server
	done chan error
}

// Listen serves h on addr ("127.0.0.1:0": a free loopback port) until
// Close.
func Listen(addr string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{URL: BaseURL(ln.Addr().String()), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		done: make(chan error, 1)}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server: it stops accepting, waits up to 5 seconds for
// the requests in flight, then closes what is left.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		_ = s.srv.Close()
	}
	if e := <-s.done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
