package httpx

import "net/http"

// recorder remembers the status and size of a response for the access log,
// the metrics and panic recovery. Middleware share one recorder per request:
// wrapWriter returns the existing one instead of stacking another.
//
// It implements Flush and Unwrap, so streaming handlers (SSE) keep working
// through http.Flusher and http.ResponseController (deadlines, hijacking).
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool // the status line (not a 1xx) has been sent
}

func wrapWriter(w http.ResponseWriter) *recorder {
	if rw, ok := w.(*recorder); ok {
		return rw
	}
	return &recorder{ResponseWriter: w}
}

func (rw *recorder) WriteHeader(code int) {
	if !rw.wrote && (code < 100 || code >= 200 || code == http.StatusSwitchingProtocols) {
		rw.status, rw.wrote = code, true
	}
	rw.ResponseWriter.WriteHeader(code)
}

func (rw *recorder) Write(b []byte) (int, error) {
	if !rw.wrote {
		rw.status, rw.wrote = http.StatusOK, true
	}
	n, err := rw.ResponseWriter.Write(b)
	rw.bytes += int64(n)
	return n, err
}

// Flush sends buffered data to the client (http.Flusher).
func (rw *recorder) Flush() {
	if !rw.wrote {
		rw.status, rw.wrote = http.StatusOK, true
	}
	_ = http.NewResponseController(rw.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// statusCode is the status the client got: 200 when the handler wrote nothing.
func (rw *recorder) statusCode() int {
	if !rw.wrote {
		return http.StatusOK
	}
	return rw.status
}
