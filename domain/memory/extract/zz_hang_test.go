package extract

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZZHang(t *testing.T) {
	dir := os.Getenv("FUZZDIR")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.Split(string(b), "\n")
		if len(lines) < 2 {
			continue
		}
		arg := strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")")
		s, err := strconv.Unquote(arg)
		if err != nil {
			continue
		}
		done := make(chan bool)
		go func() { Extract(s, Options{Self: "me"}); Classify(s); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("hang on %q (%s)", s, f)
		}
	}
}
