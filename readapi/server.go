package readapi

import (
	"net/http"
	"time"
)

// Limits used by NewServer.
const (
	serverReadHeaderTimeout = 5 * time.Second   // slowloris guard: headers must arrive quickly
	serverReadTimeout       = 30 * time.Second  // whole request, body included
	serverWriteTimeout      = 60 * time.Second  // from end of headers to end of response
	serverIdleTimeout       = 120 * time.Second // keep-alive connections between requests
	serverMaxHeaderBytes    = 64 << 10
)

// NewServer returns an *http.Server for h on addr with sane limits: headers
// within 5s, the whole request within 30s, the response within 60s, idle
// keep-alive connections closed after 120s, headers at most 64 KiB. The
// caller starts it and shuts it down (Shutdown for a graceful stop).
//
// WriteTimeout bounds every response, so a long-lived stream (the builder's
// Server-Sent Events) would be cut after 60s. Streaming handlers must extend
// their own deadline with http.ResponseController.SetWriteDeadline (it works
// through the httpx middleware, whose writer implements Unwrap), rather than
// raising the timeout for every request.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: serverReadHeaderTimeout,
		ReadTimeout:       serverReadTimeout,
		WriteTimeout:      serverWriteTimeout,
		IdleTimeout:       serverIdleTimeout,
		MaxHeaderBytes:    serverMaxHeaderBytes,
	}
}
