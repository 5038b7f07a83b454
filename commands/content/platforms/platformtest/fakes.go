package platformtest

import (
	"testing"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/platforms"
)

// Fakes are the four fake platforms.
type Fakes struct {
	Photo      *Photo
	ShortVideo *ShortVideo
	Network    *Network
	VideoSite  *VideoSite
}

// Start starts the four fakes; close stops them. For benchmarks and
// commands (no testing.TB).
func Start() (f *Fakes, close func()) {
	f = &Fakes{Photo: NewPhoto(), ShortVideo: NewShortVideo(), Network: NewNetwork(), VideoSite: NewVideoSite()}
	return f, f.Close
}

// StartAll starts the four fakes and stops them when t's test ends.
func StartAll(t testing.TB) *Fakes {
	t.Helper()
	f, stop := Start()
	t.Cleanup(stop)
	return f
}

// Close stops the four fakes.
func (f *Fakes) Close() {
	f.Photo.Close()
	f.ShortVideo.Close()
	f.Network.Close()
	f.VideoSite.Close()
}

// Server is the fake of the platform named name (platforms.PhotoNetwork,
// ...), nil for another name.
func (f *Fakes) Server(name string) *Server {
	switch name {
	case platforms.PhotoNetwork:
		return f.Photo.Server
	case platforms.ShortVideo:
		return f.ShortVideo.Server
	case platforms.ProfessionalNetwork:
		return f.Network.Server
	case platforms.VideoSite:
		return f.VideoSite.Server
	}
	return nil
}

// Settings are the settings that point the platform named name's adapter
// at its fake, with the credentials the fake accepts (zero Settings for
// another name).
func (f *Fakes) Settings(name string) connections.Settings {
	s := f.Server(name)
	if s == nil {
		return connections.Settings{}
	}
	base := s.URL()
	out := connections.Settings{ClientID: s.clientID, ClientSecret: s.secret, APIBase: base,
		Env: "STRATA_SOCIAL_" + upper(name) + "_"}
	switch name {
	case platforms.PhotoNetwork:
		out.AuthURL, out.TokenURL = base+"/oauth/authorize", base+"/oauth/access_token"
	case platforms.ShortVideo:
		out.AuthURL, out.TokenURL, out.RevokeURL = base+"/v2/auth/authorize/", base+"/v2/oauth/token/", base+"/v2/oauth/revoke/"
	case platforms.ProfessionalNetwork:
		out.AuthURL, out.TokenURL, out.RevokeURL = base+"/oauth/v2/authorization", base+"/oauth/v2/accessToken", base+"/oauth/v2/revoke"
	case platforms.VideoSite:
		out.AuthURL, out.TokenURL, out.RevokeURL = base+"/o/oauth2/v2/auth", base+"/token", base+"/revoke"
	}
	return out
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
