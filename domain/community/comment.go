package community

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// Comment is the fold of a comment's stream.
type Comment struct {
	ID          string
	TenantID    string
	UserID      string
	ContentType string
	ContentID   int64
	Text        string
	CreatedAt   time.Time
	UpdatedAt   *time.Time
	Deleted     bool
	Version     int64
}

// Exists reports whether the comment was posted.
func (c *Comment) Exists() bool { return c.ID != "" }

// Apply folds one event of the comment's stream.
func (c *Comment) Apply(ev kernel.Event) {
	switch ev := ev.(type) {
	case *CommentPosted:
		*c = Comment{ID: ev.CommentID, TenantID: ev.TenantID, UserID: ev.UserID, ContentType: ev.ContentType,
			ContentID: ev.ContentID, Text: ev.Comment, CreatedAt: ev.At, Version: c.Version}
	case *CommentEdited:
		at := ev.At
		c.Text, c.UpdatedAt = ev.Comment, &at
	case *CommentDeleted:
		c.Deleted = true
	}
}

var contentTypePattern = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// CheckContent refuses a content reference that is not a lowercase type
// name (letters, digits, _ and -, starting with a letter, at most 50) and
// a non-negative integer id.
func CheckContent(contentType string, contentID int64) error {
	if contentType == "" {
		return kernel.Invalid("content_type", "required", "content_type is required")
	}
	if len(contentType) > MaxContentType || !contentTypePattern.MatchString(contentType) {
		return kernel.Invalid("content_type", "pattern",
			"content_type must be lowercase letters, digits, _ or -, starting with a letter, at most 50 characters")
	}
	if contentID < 0 {
		return kernel.Invalid("content_id", "min:0", "content_id must be a non-negative integer")
	}
	return nil
}

// checkText refuses a comment that is blank or longer than 5000 characters,
// or that breaks the tenant's moderation policy.
func checkText(text string, p Policy) error {
	if strings.TrimSpace(text) == "" {
		return kernel.Invalid("comment", "required", "comment must have 1 to 5000 characters")
	}
	if n := utf8.RuneCountInString(text); n > MaxComment {
		return kernel.Invalid("comment", fmt.Sprintf("max_length:%d", MaxComment),
			fmt.Sprintf("comment must have 1 to %d characters; it has %d", MaxComment, n))
	}
	return p.Check(text)
}

// PostComment decides a new comment by user in tenant under the tenant's
// moderation policy.
func PostComment(id, tenant, user, contentType string, contentID int64, text string, p Policy, now time.Time) (*CommentPosted, error) {
	if tenant == "" {
		return nil, NoTenant()
	}
	if err := CheckContent(contentType, contentID); err != nil {
		return nil, err
	}
	text = strings.TrimSpace(text)
	if err := checkText(text, p); err != nil {
		return nil, err
	}
	return &CommentPosted{CommentID: id, TenantID: tenant, UserID: user, ContentType: contentType, ContentID: contentID,
		Comment: text, At: stamp(now)}, nil
}

// Edit decides a new text by actor, who must own the comment; the policy
// is the comment's tenant's. The same text gives no events.
func (c *Comment) Edit(actor, text string, p Policy, now time.Time) ([]kernel.Event, error) {
	if c.UserID != actor {
		return nil, kernel.Forbidden("only the comment's author may edit it")
	}
	text = strings.TrimSpace(text)
	if err := checkText(text, p); err != nil {
		return nil, err
	}
	if text == c.Text {
		return nil, nil
	}
	return []kernel.Event{&CommentEdited{CommentID: c.ID, Comment: text, At: stamp(now)}}, nil
}

// Delete decides a deletion by actor: the author, or (admin) a platform
// administrator or an administrator of the comment's tenant.
func (c *Comment) Delete(actor string, admin bool, now time.Time) ([]kernel.Event, error) {
	if c.UserID != actor && !admin {
		return nil, kernel.Forbidden("only the comment's author or an administrator may delete it")
	}
	return []kernel.Event{&CommentDeleted{CommentID: c.ID, By: actor, At: stamp(now)}}, nil
}
