package hackathonbench

import (
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	stdmail "net/mail"
	"os"
	"regexp"
	"strings"

	"github.com/strata-platform/strata/commands/mail"
)

// tokenPattern finds an invitation token in a mail's text.
var tokenPattern = regexp.MustCompile(`hjinv_[A-Za-z0-9_-]+`)

// invitationTokens reads the judge invitations to hackathon id from the
// dev mailbox in dir: the token mailed to each address (lower case).
func invitationTokens(dir, id string) (map[string]string, error) {
	paths, err := mail.NewMailbox(dir, slog.New(slog.DiscardHandler)).Messages()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		to, text, err := readMail(p)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(text, "/api/v1/hackathons/"+id+"/") {
			continue
		}
		if tok := tokenPattern.FindString(text); tok != "" {
			out[to] = tok
		}
	}
	return out, nil
}

// readMail returns a mailbox message's recipient (lower case) and its
// decoded text.
func readMail(path string) (string, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	m, err := stdmail.ReadMessage(f)
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", path, err)
	}
	to, err := stdmail.ParseAddress(m.Header.Get("To"))
	if err != nil {
		return "", "", fmt.Errorf("read %s: To: %w", path, err)
	}
	body := m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", path, err)
	}
	return strings.ToLower(to.Address), string(text), nil
}
