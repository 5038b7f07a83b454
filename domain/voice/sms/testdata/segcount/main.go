// Command segcount is package sms over JSON lines, for e2e/sms-segments.test.mjs:
// each line of stdin is a JSON string, the SMS body; each line of stdout is
// {"encoding": "GSM-7" | "UCS-2", "segments": n} for it, in order. It lives
// under testdata so that ./... leaves it out; run it as
// go run ./domain/voice/sms/testdata/segcount
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/strata-platform/strata/domain/voice/sms"
)

type line struct {
	Encoding string `json:"encoding"`
	Segments int    `json:"segments"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<16), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	n := 0
	for in.Scan() {
		n++
		if len(in.Bytes()) == 0 {
			continue
		}
		var body string
		if err := json.Unmarshal(in.Bytes(), &body); err != nil {
			fmt.Fprintf(os.Stderr, "segcount: line %d: %v\n", n, err)
			os.Exit(2)
		}
		r := sms.Count(body)
		if err := enc.Encode(line{r.Encoding, r.Segments}); err != nil {
			fmt.Fprintln(os.Stderr, "segcount:", err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "segcount: reading stdin:", err)
		os.Exit(1)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "segcount:", err)
		os.Exit(1)
	}
}
