package actions

import (
	"bytes"
	"html"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"regexp"
	"strings"
	"time"
)

// message is an RFC 5322 reply with a text/plain body, or for an HTML body
// a multipart/alternative of a plain rendering and the HTML, both UTF-8 in
// quoted-printable.
type message struct {
	From       *mail.Address
	To, Cc     []*mail.Address
	Subject    string
	InReplyTo  string
	References []string
	Body       string
}

// bytes renders the message (CRLF line ends), dated at.
func (m *message) bytes(at time.Time) ([]byte, error) {
	var b bytes.Buffer
	header := func(name, value string) {
		b.WriteString(name + ": " + value + "\r\n")
	}
	header("MIME-Version", "1.0")
	header("Date", at.Format(time.RFC1123Z))
	header("From", m.From.String())
	header("To", joinAddresses(m.To))
	if len(m.Cc) > 0 {
		header("Cc", joinAddresses(m.Cc))
	}
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	if m.InReplyTo != "" {
		header("In-Reply-To", m.InReplyTo)
	}
	if len(m.References) > 0 {
		header("References", strings.Join(m.References, "\r\n "))
	}
	if !isHTML(m.Body) {
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		if err := writeQP(&b, m.Body); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	mw := multipart.NewWriter(&b)
	header("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": mw.Boundary()}))
	b.WriteString("\r\n")
	for _, part := range []struct{ typ, text string }{{"text/plain", plainText(m.Body)}, {"text/html", m.Body}} {
		w, err := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {part.typ + "; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"}})
		if err != nil {
			return nil, err
		}
		var pb bytes.Buffer
		if err := writeQP(&pb, part.text); err != nil {
			return nil, err
		}
		if _, err := w.Write(pb.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func joinAddresses(l []*mail.Address) string {
	parts := make([]string, len(l))
	for i, a := range l {
		parts[i] = a.String()
	}
	return strings.Join(parts, ", ")
}

// writeQP writes s quoted-printable with CRLF line ends.
func writeQP(b *bytes.Buffer, s string) error {
	w := quotedprintable.NewWriter(b)
	if _, err := w.Write([]byte(strings.ReplaceAll(s, "\r\n", "\n"))); err != nil {
		return err
	}
	return w.Close()
}

var (
	// htmlTag finds markup a mail body written as HTML has.
	htmlTag = regexp.MustCompile(`(?i)<(?:html|body|p|div|br|a\s|b|i|em|strong|u|ul|ol|li|h[1-6]|table|tr|td|span|img|blockquote|pre|code|hr)\b[^>]*>`)
	// breaks are the tags a plain rendering turns into line breaks.
	breaks    = regexp.MustCompile(`(?i)<\s*(?:br\s*/?|/p|/div|/h[1-6]|/li|/tr|/blockquote|hr\s*/?)\s*>`)
	listItem  = regexp.MustCompile(`(?i)<\s*li\b[^>]*>`)
	invisible = regexp.MustCompile(`(?is)<\s*(script|style|head)\b.*?<\s*/\s*(script|style|head)\s*>`)
	anyTag    = regexp.MustCompile(`(?s)<[^>]*>`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
	spaceRuns = regexp.MustCompile(`[ \t]+`)
)

// isHTML reports whether a body is HTML rather than plain text.
func isHTML(s string) bool { return htmlTag.MatchString(s) }

// plainText renders HTML as plain text: block ends become line breaks,
// list items dashes, tags go, entities are decoded.
func plainText(s string) string {
	s = invisible.ReplaceAllString(s, "")
	s = strings.NewReplacer("\r\n", " ", "\n", " ").Replace(s)
	s = breaks.ReplaceAllString(s, "\n")
	s = listItem.ReplaceAllString(s, "- ")
	s = anyTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(spaceRuns.ReplaceAllString(l, " "))
	}
	return strings.TrimSpace(blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n")) + "\n"
}
