package devupstream

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// PassThrough is an HTTP proxy that does nothing but forward every request
// to target (an http base URL such as http://127.0.0.1:8099) and copy the
// answer back, flushing each write at once (net/http/httputil's
// ReverseProxy). It is a measuring stick, not a gateway: `strata bench
// gateway` sends the same requests through it as through the gateway, so
// its report shows what one more HTTP hop in Go costs on the machine
// before any authentication, translation or billing (`strata dev-upstream
// --pass-through URL`). Its connection pool matches the gateway's
// upstream client's.
func PassThrough(target string) (http.Handler, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("pass-through: %q is not an http(s) base URL", target)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 256, IdleConnTimeout: 90 * time.Second,
		DisableCompression: true} // the answer's bytes pass as they are
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = u.Host
		},
		FlushInterval: -1, // every write of the upstream's reaches the client at once: streams are never held
		Transport:     tr,
	}, nil
}
