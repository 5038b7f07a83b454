package platformtest

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Requests counts the calls received whose "METHOD /path" starts with match.
func (s *Server) Requests(match string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.log {
		if strings.HasPrefix(l, match) {
			n++
		}
	}
	return n
}

// Log lists the calls received, as "METHOD /path".
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// Posts lists the posts created, in order.
func (s *Server) Posts() []Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Post, len(s.posts))
	for i, p := range s.posts {
		p.Media = append([]string(nil), p.Media...)
		out[i] = p
	}
	return out
}

// PostCount is len(Posts()).
func (s *Server) PostCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.posts)
}

// Duplicates counts posts that repeat an earlier post's account, title and
// text (a double post).
func (s *Server) Duplicates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	n := 0
	for _, p := range s.posts {
		k := p.Account + "\x00" + p.Title + "\x00" + p.Text
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}

// SetInsights sets an account's numbers for the UTC date of day.
func (s *Server) SetInsights(account string, day time.Time, n Numbers) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.insights[account]
	if m == nil {
		m = map[string]Numbers{}
		s.insights[account] = m
	}
	m[day.UTC().Format(time.DateOnly)] = n
}

func (s *Server) numbers(account string, day time.Time) (Numbers, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.insights[account][day.UTC().Format(time.DateOnly)]
	return n, ok
}

func (s *Server) nextLocked(prefix string) string {
	s.seq++
	return prefix + "-" + strconv.Itoa(s.seq)
}

func (s *Server) next(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nextLocked(prefix)
}

func (s *Server) addPost(p Post) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.ID == "" {
		p.ID = strconv.Itoa(17800000000000000 + len(s.posts) + 1)
	}
	p.Time = time.Now()
	s.posts = append(s.posts, p)
	return p.ID
}

// processing returns the fake's processing configuration.
func (s *Server) processing() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polls, s.failReason
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			_ = c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}
