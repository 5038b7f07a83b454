package enrich

import "testing"

func TestPatterns(t *testing.T) {
	for _, c := range []struct {
		ns       bool
		name     string
		provider string // "" for no match
	}{
		{true, "ns-1536.awsdns-00.co.uk", "AWS"},
		{true, "NS-512.AWSDNS-64.NET.", "AWS"},
		{true, "ns-0.awsdns-00.com", "AWS"},
		{true, "ns-1024.awsdns-00.org", "AWS"},
		{true, "awsdns-00.com", ""},
		{true, "ns-1.awsdns-.com", ""},
		{true, "ns-1.notawsdns-00.com", ""},
		{true, "ns-1.awsdns-00.com.evil.example", ""},
		{true, "ada.ns.cloudflare.com", "Cloudflare"},
		{true, "ns.cloudflare.com", ""},
		{true, "ada.ns.cloudflare.com.evil.net", ""},
		{true, "adans.cloudflare.com", ""},
		{true, "ns-cloud-a1.googledomains.com", "Google Cloud"},
		{true, "x.ns-cloud-a1.googledomains.com", ""},
		{true, "ns1-01.azure-dns.com", "Azure"},
		{true, "ns4-01.azure-dns.info", "Azure"},
		{true, "ns47.domaincontrol.com", "GoDaddy"},
		{true, "ns1.vercel-dns.com", "Vercel"},
		{true, "ns1.example.net", ""},
		{false, "d111111abcdef8.cloudfront.net", "AWS"},
		{false, "evilcloudfront.net", ""},
		{false, "cloudfront.net", ""},
		{false, "d1.cloudfront.net.evil.example", ""},
		{false, "bucket.s3.eu-west-1.amazonaws.com.", "AWS"},
		{false, "cname.vercel-dns.com", "Vercel"},
		{false, "my-app.vercel.app", "Vercel"},
		{false, "shop.azurewebsites.net", "Azure"},
		{false, "vm1.westeurope.cloudapp.azure.com", "Azure"},
		{false, "cdn.azureedge.net", "Azure"},
		{false, "site.trafficmanager.net", "Azure"},
		{false, "GHS.googlehosted.com", "Google Cloud"},
		{false, "x.ghs.googlehosted.com", ""},
		{false, "app.appspot.com", "Google Cloud"},
		{false, "svc-abc123-ew.a.run.app", "Google Cloud"},
		{false, "www.example.com.cdn.cloudflare.net", "Cloudflare"},
		{false, "a..cloudfront.net", ""},
		{false, "", ""},
		{false, ".", ""},
	} {
		match := MatchCNAME
		if c.ns {
			match = MatchNS
		}
		p, ok := match(c.name)
		if got := p.Provider; ok != (c.provider != "") || got != c.provider {
			t.Errorf("match(ns=%v, %q) = %q, %v; want %q", c.ns, c.name, got, ok, c.provider)
		}
	}
}
