package datamarket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/domain/kernel"
)

// Source is a file to import: a path or an http(s) URL.
type Source struct {
	// Location is a file path or an http(s) URL.
	Location string
	// Format is csv, ndjson, or a provider's ranges format (aws, google,
	// azure, cloudflare); empty: from the location's extension.
	Format  string
	License string
	// Sample marks the repository's sample files.
	Sample bool
	// By names who imports (an operator, "schedule").
	By string
	// Name, if set, is what provenance records as the source instead of
	// the location (an enrichment's derived file).
	Name string
	// DerivedFrom is the version an enrichment read its domains from.
	DerivedFrom int
}

// spooled is a source read once, with its checksum: a URL's body in a
// temporary file, a local file where it is (temp false).
type spooled struct {
	path   string
	sha256 string
	bytes  int64
	temp   bool
}

func (s *spooled) open() (*os.File, error) { return os.Open(s.path) }
func (s *spooled) remove() {
	if s.temp {
		_ = os.Remove(s.path)
	}
}

// isURL reports whether a location is fetched rather than opened.
func isURL(loc string) bool {
	return strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://")
}

// spool copies the source to a temporary file, hashing it, at most max
// bytes. URLs are fetched through the platform's SSRF-safe client.
func (s *Service) spool(ctx context.Context, src Source) (*spooled, error) {
	var r io.ReadCloser
	if isURL(src.Location) {
		if s.cfg.Client == nil {
			return nil, kernel.Unavailable("fetching a URL needs the outbound client", nil)
		}
		if _, err := url.Parse(src.Location); err != nil {
			return nil, kernel.Invalid("source", "url", "the source is not a valid URL")
		}
		req, err := http.NewRequestWithContext(outbound.WithResponseLimit(ctx, s.cfg.MaxBytes), http.MethodGet, src.Location, nil)
		if err != nil {
			return nil, kernel.Invalid("source", "url", err.Error())
		}
		resp, err := s.cfg.Client.HTTPClient().Do(req)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", src.Location, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("fetch %s: HTTP %d", src.Location, resp.StatusCode)
		}
		r = resp.Body
	} else {
		return s.hashFile(src.Location)
	}
	defer r.Close()
	tmp, err := os.CreateTemp("", "strata-data-*")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, s.cfg.MaxBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	out := &spooled{path: tmp.Name(), sha256: hex.EncodeToString(h.Sum(nil)), bytes: n, temp: true}
	if err != nil {
		out.remove()
		return nil, fmt.Errorf("read %s: %w", src.Location, err)
	}
	if n > s.cfg.MaxBytes {
		out.remove()
		return nil, kernel.E(kernel.KindTooLarge, fmt.Sprintf("%s is larger than %d bytes", src.Location, s.cfg.MaxBytes))
	}
	return out, nil
}

// hashFile reads a local file once for its checksum; the load reads it
// again and checks it did not change in between (changed).
func (s *Service) hashFile(path string) (*spooled, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, kernel.Invalid("source", "file", fmt.Sprintf("cannot open %s: %v", path, err))
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, s.cfg.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if n > s.cfg.MaxBytes {
		return nil, kernel.E(kernel.KindTooLarge, fmt.Sprintf("%s is larger than %d bytes", path, s.cfg.MaxBytes))
	}
	return &spooled{path: path, sha256: hex.EncodeToString(h.Sum(nil)), bytes: n}, nil
}

// hashingReader hashes what a load reads, to compare with the checksum
// the version records.
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

// changed reports whether the bytes read differ from the spooled file's.
func (h *hashingReader) changed(sp *spooled) bool {
	return h.n != sp.bytes || hex.EncodeToString(h.h.Sum(nil)) != sp.sha256
}

// sourceName is what provenance records of a location: a URL as given
// (without credentials), a file by its base name (never a machine path).
func sourceName(loc string) string {
	if isURL(loc) {
		if u, err := url.Parse(loc); err == nil {
			u.User = nil
			return u.String()
		}
		return loc
	}
	return filepath.Base(loc)
}

// formatOf is a source's format: given, or from its extension.
func formatOf(src Source) (string, error) {
	f := strings.ToLower(strings.TrimSpace(src.Format))
	if f == "" {
		p := src.Location
		if u, err := url.Parse(p); err == nil && isURL(p) {
			p = u.Path
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".csv":
			f = "csv"
		case ".ndjson", ".jsonl":
			f = "ndjson"
		default:
			return "", kernel.Invalid("format", "enum", "cannot tell the format from the name; give csv or ndjson")
		}
	}
	switch f {
	case "csv", "ndjson", "aws", "google", "azure", "cloudflare":
		return f, nil
	}
	return "", kernel.Invalid("format", "enum", "format must be csv, ndjson, aws, google, azure or cloudflare, got "+f)
}
