package template

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A request in flight when SIGTERM arrives is finished and its record
// written before the server exits 0; new connections are refused.
func TestGeneratedServerDrainsOnSIGTERM(t *testing.T) {
	node := nodeOrSkip(t)
	s, err := Plan("book yoga classes at my studio")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeApp(t, files)
	dataFile := filepath.Join(t.TempDir(), "data.json")
	app := startApp(t, node, dir, dataFile, "")

	body, _ := json.Marshal(validBooking("Late"))
	conn, err := net.Dial("tcp", strings.TrimPrefix(app.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	half := len(body) / 2
	fmt.Fprintf(conn, "POST /api/bookings HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		len(body), body[:half])
	time.Sleep(200 * time.Millisecond) // the server has the request's head
	if err := app.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(app.base, "http://"), time.Second); err == nil {
		c.Close()
		t.Error("the server still accepts connections after SIGTERM")
	}
	if _, err := conn.Write(body[half:]); err != nil {
		t.Fatalf("finish the body: %v", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request in flight got no answer: %v\n%s", err, app.log)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("the request in flight got %d", res.StatusCode)
	}
	select {
	case err := <-app.done:
		if err != nil {
			t.Fatalf("exit after draining: %v\n%s", err, app.log)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the server did not exit after its last request:\n%s", app.log)
	}
	raw, err := os.ReadFile(dataFile)
	if err != nil || !strings.Contains(string(raw), `"Late"`) {
		t.Fatalf("the drained request's record is not in DATA_FILE: %s (%v)", raw, err)
	}
}
