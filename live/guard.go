package live

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Access is who may reach an HTTP endpoint that drives the phone: the live page, and
// `fairy mcp --http`. A request must name the server by a host it answers to (a page on
// another site whose name resolves to 127.0.0.1 — DNS rebinding — names its own), must
// come from no other origin (a page on another site posting to it), and must carry the
// token.
type Access struct {
	// Token is the secret a request carries: as "Authorization: Bearer TOKEN", or, where
	// a browser cannot set a header (the page's address, its event stream, its pictures),
	// as the query parameter t. Required.
	Token string
	// Loopback says the server listens on a loopback address only: then the Host header
	// must be a loopback name or address with the server's port. A server on another
	// address cannot know every name it is reached by; its token is what keeps others out.
	Loopback bool
	// Port is the server's port, checked in Host when Loopback.
	Port string
	// QueryToken accepts the token in the query (t=…) as well as in the header: the live
	// page; `fairy mcp --http` takes the header only, where it does not end up in logs.
	QueryToken bool
}

// NewToken returns a random token: 32 hex digits from crypto/rand.
func NewToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("live: token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// IsLoopback reports whether host (a name or an address, no port) is loopback:
// localhost, 127.0.0.0/8, ::1. An empty host (":8766") listens on every address: not
// loopback.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckAddr refuses to serve on addr (host:port) without a token the person chose when
// addr is not loopback: a random token printed on this machine's terminal would still be
// the only thing between the phone and the network, and the person did not ask for that.
func CheckAddr(addr string, tokenGiven bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: %q: give host:port, e.g. 127.0.0.1:8766", errAddress, addr)
	}
	if !IsLoopback(host) && !tokenGiven {
		return fmt.Errorf("%w: %s is reachable from other machines: listen on 127.0.0.1, "+
			"or set a token of your own to serve there", ErrNotLoopback, addr)
	}
	return nil
}

// Protect returns h behind the access check: a request that fails it gets 403 (a foreign
// Host or Origin) or 401 (no token, a wrong one) and never reaches h.
func (a Access) Protect(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, why := a.Check(r); status != 0 {
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="fairy"`)
			}
			http.Error(w, why, status)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Check returns 0 for a request that may pass, else the status and the reason to refuse it.
func (a Access) Check(r *http.Request) (status int, why string) {
	if a.Loopback && !a.loopbackHost(r.Host) {
		return http.StatusForbidden, "fairy: refused: the Host header names no loopback address of this server " +
			"(DNS rebinding?): open the address fairy printed"
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if o == "null" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, r.Host) {
			return http.StatusForbidden, "fairy: refused: a request from another origin (" + o + ") may not drive the phone"
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return http.StatusForbidden, "fairy: refused: a cross-site request may not drive the phone"
	}
	if !a.tokenOK(r) {
		return http.StatusUnauthorized, "fairy: refused: no token or a wrong one: " +
			"open the address fairy printed, with its token"
	}
	return 0, ""
}

// loopbackHost reports whether a Host header names this server on a loopback name.
func (a Access) loopbackHost(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	return port == a.Port && IsLoopback(host)
}

func (a Access) tokenOK(r *http.Request) bool {
	if a.Token == "" {
		return false
	}
	got := ""
	if h := r.Header.Get("Authorization"); h != "" {
		if t, ok := strings.CutPrefix(h, "Bearer "); ok {
			got = strings.TrimSpace(t)
		}
	} else if a.QueryToken {
		got = r.URL.Query().Get("t")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(a.Token)) == 1
}
