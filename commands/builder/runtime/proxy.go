package runtime

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// backendIdleTimeout closes idle keep-alive connections to an app before
// Node's own keep-alive timeout (5 s) does, so that the proxy never sends a
// request on a connection the app is closing.
const backendIdleTimeout = 4 * time.Second

// backend is one instance serving a company's traffic: its proxy, its own
// connection pool and the count of requests in flight through it.
type backend struct {
	version   string
	inst      Instance
	since     time.Time
	transport *http.Transport
	proxy     *httputil.ReverseProxy

	mu       sync.Mutex
	active   int           // requests in flight
	draining bool          // no new requests are admitted
	idle     chan struct{} // closed when draining and active == 0
}

// newBackend returns a backend proxying to inst.
func newBackend(version string, inst Instance, since time.Time, logger *slog.Logger) *backend {
	target := &url.URL{Scheme: "http", Host: inst.Addr()}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     backendIdleTimeout,
	}
	b := &backend{version: version, inst: inst, since: since, transport: tr, idle: make(chan struct{})}
	b.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
			pr.Out.Host = pr.In.Host
		},
		Transport: tr,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the client left; nobody reads an answer
			}
			logger.Warn("app did not answer", "err", err)
			http.Error(w, "The app is not answering. It may have stopped; redeploying it starts it again.", http.StatusBadGateway)
		},
	}
	return b
}

// acquire admits one request, unless the backend is draining.
func (b *backend) acquire() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.draining {
		return false
	}
	b.active++
	return true
}

// release ends one admitted request.
func (b *backend) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active--
	if b.draining && b.active == 0 {
		close(b.idle)
	}
}

// drain stops admitting requests and waits until those in flight have
// finished or ctx ends; it reports how many were still in flight (0 when
// drained). Idle keep-alive connections to the app are closed either way.
func (b *backend) drain(ctx context.Context) int {
	b.mu.Lock()
	if !b.draining {
		b.draining = true
		if b.active == 0 {
			close(b.idle)
		}
	}
	b.mu.Unlock()
	defer b.transport.CloseIdleConnections()
	select {
	case <-b.idle:
		return 0
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.active
	}
}

// Handler returns a reverse proxy to the company's current instance. It
// forwards the request as it comes (mount it under a prefix with
// http.StripPrefix), keeps the Host header and sets X-Forwarded-*. With no
// instance serving it answers 503 with a plain-text explanation; when the
// instance does not answer, 502. A request admitted by an instance that is
// then replaced completes on it: the old instance is stopped only after its
// requests in flight have finished (or the drain timeout has passed).
func (d *Deployer) Handler(companyID string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A backend refuses admission only once it is draining, which happens
		// after the company's current backend was replaced: load again.
		for range 4 {
			b := d.current(companyID)
			if b == nil {
				break
			}
			if b.acquire() {
				defer b.release()
				b.proxy.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Retry-After", "5")
		http.Error(w, "This app is not running: no version of it has been deployed yet, or it is being stopped.", http.StatusServiceUnavailable)
	})
}
