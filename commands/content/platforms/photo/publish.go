package photo

import (
	"context"
	"net/url"
	"strings"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/content/platforms/internal/wire"
)

// maxCarousel is the most items a carousel takes.
const maxCarousel = 10

// Publish creates the container(s), waits for them and publishes. Only
// media_publish creates the post; containers that are never published
// expire on the platform's side.
func (a *Adapter) Publish(ctx context.Context, t connections.Tokens, acct connections.Identity, p platforms.Post) (platforms.Published, error) {
	switch {
	case len(p.Media) == 0:
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" needs an image or a video: it takes no text-only post")
	case len(p.Media) > maxCarousel:
		return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" takes at most 10 images or videos in a post")
	}
	for _, m := range p.Media {
		if m.URL == "" {
			return platforms.Published{}, connections.Fail(connections.Refused, 0, label+" fetches media itself: a media URL is required")
		}
	}
	user := userID(acct)
	var id string
	if len(p.Media) == 1 {
		c, err := a.container(ctx, t, user, p.Media[0], false, p.Text)
		if err != nil {
			return platforms.Published{}, err
		}
		id = c
	} else {
		var children []string
		for _, m := range p.Media {
			c, err := a.container(ctx, t, user, m, true, "")
			if err != nil {
				return platforms.Published{}, err
			}
			children = append(children, c)
		}
		for _, c := range children {
			if err := a.wait(ctx, t, c); err != nil {
				return platforms.Published{}, err
			}
		}
		form := url.Values{"media_type": {"CAROUSEL"}, "children": {strings.Join(children, ",")}, "caption": {p.Text}}
		var out struct{ ID string }
		if err := a.post(ctx, t, "/"+Version+"/"+user+"/media", form, &out); err != nil {
			return platforms.Published{}, err
		}
		id = out.ID
	}
	if err := a.wait(ctx, t, id); err != nil {
		return platforms.Published{}, err
	}
	var pub struct{ ID string }
	if err := a.post(ctx, t, "/"+Version+"/"+user+"/media_publish", url.Values{"creation_id": {id}}, &pub); err != nil {
		return platforms.Published{}, err
	}
	if pub.ID == "" {
		return platforms.Published{}, connections.Fail(connections.Unconfirmed, 0, "media_publish answered no media id")
	}
	out := platforms.Published{ID: pub.ID}
	var link struct{ Permalink string }
	if a.get(ctx, t, "/"+Version+"/"+pub.ID+"?fields=permalink", &link) == nil {
		out.URL = link.Permalink
	}
	return out, nil
}

// container creates one media container (a reel for a video, an image;
// a carousel item when item).
func (a *Adapter) container(ctx context.Context, t connections.Tokens, user string, m platforms.Media, item bool, caption string) (string, error) {
	form := url.Values{}
	if m.Kind == "video" {
		form.Set("video_url", m.URL)
		form.Set("media_type", "REELS")
		if item {
			form.Set("media_type", "VIDEO")
		}
	} else {
		form.Set("image_url", m.URL)
	}
	if item {
		form.Set("is_carousel_item", "true")
	} else {
		form.Set("caption", caption)
	}
	var out struct{ ID string }
	if err := a.post(ctx, t, "/"+Version+"/"+user+"/media", form, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", connections.Fail(connections.Transient, 0, "the container was answered without an id")
	}
	return out.ID, nil
}

// wait polls a container until it is FINISHED. Nothing is posted yet, so
// a cancelled wait is Transient.
func (a *Adapter) wait(ctx context.Context, t connections.Tokens, id string) error {
	for {
		var st struct {
			StatusCode string `json:"status_code"`
			Status     string `json:"status"`
		}
		if err := a.get(ctx, t, "/"+Version+"/"+id+"?fields=status_code,status", &st); err != nil {
			return err
		}
		switch st.StatusCode {
		case "FINISHED":
			return nil
		case "ERROR", "EXPIRED":
			reason := st.StatusCode
			if st.Status != "" {
				reason += ": " + st.Status
			}
			return connections.Fail(connections.Refused, 0, label+" could not process the media ("+reason+")")
		case "PUBLISHED":
			return connections.Fail(connections.Refused, 0, "the container was already published")
		}
		if wire.Wait(ctx, a.PollInterval) != nil {
			return connections.Fail(connections.Transient, 0, "stopped while the media was processed; nothing was posted")
		}
	}
}
