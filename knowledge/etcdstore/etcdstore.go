package etcdstore

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/fairy-go/fairy/knowledge"
)

// urlScheme starts a knowledge location that names an etcd cluster: etcd://HOST:PORT[,HOST:PORT…]/PREFIX.
const urlScheme = "etcd://"

// defaultDialTimeout bounds the first connection to the cluster.
const defaultDialTimeout = 5 * time.Second

// ErrBadURL reports a knowledge location that is not a valid etcd:// URL.
var ErrBadURL = errors.New("etcdstore: bad etcd URL")

// Config says which cluster and prefix hold the knowledge, and how to reach it.
type Config struct {
	// Endpoints are the cluster's client addresses, HOST:PORT each.
	Endpoints []string
	// Prefix names the knowledge in the cluster; several fleets can share one cluster
	// under different prefixes.
	Prefix string
	// Username and Password authenticate when the cluster has auth enabled.
	Username, Password string
	// TLS, when set, is used for every connection (https endpoints).
	TLS *tls.Config
	// DialTimeout bounds the first connection; zero means DefaultDialTimeout.
	DialTimeout time.Duration
}

// IsURL says whether loc names an etcd cluster rather than a knowledge file.
func IsURL(loc string) bool { return strings.HasPrefix(loc, urlScheme) }

// ParseURL reads etcd://HOST:PORT[,HOST:PORT…]/PREFIX into a Config's endpoints and prefix.
func ParseURL(loc string) (Config, error) {
	rest, ok := strings.CutPrefix(loc, urlScheme)
	if !ok {
		return Config{}, fmt.Errorf("%q does not start with %s: %w", loc, urlScheme, ErrBadURL)
	}
	hosts, prefix, _ := strings.Cut(rest, "/")
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return Config{}, fmt.Errorf("%q names no prefix: write etcd://HOST:PORT/PREFIX, e.g. etcd://127.0.0.1:2379/fairy: %w", loc, ErrBadURL)
	}
	if strings.ContainsAny(prefix, "?#@") {
		return Config{}, fmt.Errorf("%q: the prefix %q may not hold ?, # or @ (credentials go in the config, knowledge-etcd:): %w", loc, prefix, ErrBadURL)
	}
	var cfg Config
	for _, h := range strings.Split(hosts, ",") {
		host, port, err := net.SplitHostPort(h)
		if err != nil || host == "" || port == "" {
			return Config{}, fmt.Errorf("%q: endpoint %q is not HOST:PORT: %w", loc, h, ErrBadURL)
		}
		cfg.Endpoints = append(cfg.Endpoints, h)
	}
	cfg.Prefix = prefix
	return cfg, nil
}

// Client is a knowledge.Remote on an etcd cluster.
type Client struct {
	cli     *clientv3.Client
	name    string
	records string // P/r/
	revKey  string // P/rev
}

// New connects to the cluster of cfg (lazily: an unreachable cluster fails the first call).
func New(cfg Config) (*Client, error) {
	if len(cfg.Endpoints) == 0 {
		return nil, fmt.Errorf("etcdstore: no endpoints: %w", ErrBadURL)
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix == "" {
		return nil, fmt.Errorf("etcdstore: no prefix: %w", ErrBadURL)
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = defaultDialTimeout
	}
	scheme := "http://"
	if cfg.TLS != nil {
		scheme = "https://"
	}
	eps := make([]string, len(cfg.Endpoints))
	for i, e := range cfg.Endpoints {
		eps[i] = scheme + e
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps, DialTimeout: cfg.DialTimeout, TLS: cfg.TLS,
		Username: cfg.Username, Password: cfg.Password, Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("etcdstore: connect to %s: %w", strings.Join(cfg.Endpoints, ","), err)
	}
	return &Client{cli: cli, name: urlScheme + strings.Join(cfg.Endpoints, ",") + "/" + prefix,
		records: prefix + "/r/", revKey: prefix + "/rev"}, nil
}

// Open opens the knowledge under cfg as a knowledge.Store mirrored from etcd. A cluster
// none of whose endpoints can answer (an unknown host, nothing listening, no route, no
// answer within the dial timeout) fails with an *EndpointsError that names each endpoint's
// problem, and at once where the network says so at once.
func Open(cfg Config, opts knowledge.Options) (*knowledge.Store, error) {
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	wait := cmp.Or(cfg.DialTimeout, defaultDialTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := probe(ctx, cfg.Endpoints, wait); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("open shared knowledge %s: %w", c, err)
	}
	return knowledge.OpenMirror(c, opts)
}

// EndpointsError reports a cluster none of whose endpoints can answer: each host is
// unknown to DNS, refuses the connection, cannot be routed to or does not answer within
// the dial timeout. It wraps knowledge.ErrRemoteUnreachable.
type EndpointsError struct {
	// Problems says what is wrong with each endpoint, in the location's order.
	Problems []string
}

func (e *EndpointsError) Error() string {
	return fmt.Sprintf("no etcd endpoint answers (%s): correct HOST:PORT in the etcd:// location, or start etcd there", strings.Join(e.Problems, "; "))
}

// Unwrap returns knowledge.ErrRemoteUnreachable.
func (e *EndpointsError) Unwrap() error { return knowledge.ErrRemoteUnreachable }

// probe looks up and dials every endpoint once, all at once, so that a cluster that cannot
// answer at all is reported by name, and at once where the network says so at once:
// etcd's client would retry until its dial timeout and then say only "context deadline
// exceeded". An endpoint that accepts the connection, or fails in a way not listed in
// EndpointsError, leaves the verdict to the client.
func probe(ctx context.Context, endpoints []string, wait time.Duration) error {
	problems := make([]string, len(endpoints))
	var wg sync.WaitGroup
	for i, ep := range endpoints {
		wg.Go(func() { problems[i] = probeEndpoint(ctx, ep, wait) })
	}
	wg.Wait()
	if slices.Contains(problems, "") {
		return nil
	}
	return &EndpointsError{Problems: problems}
}

// probeEndpoint says what keeps ep from answering within wait (ctx's deadline), or ""
// when it may answer.
func probeEndpoint(ctx context.Context, ep string, wait time.Duration) string {
	host, _, err := net.SplitHostPort(ep)
	if err != nil {
		return ""
	}
	if net.ParseIP(host) == nil {
		_, err := net.DefaultResolver.LookupHost(ctx, host)
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return fmt.Sprintf("host %s is not known to DNS", host)
		}
		if err != nil {
			return ""
		}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", ep)
	var netErr net.Error
	switch {
	case err == nil:
		_ = conn.Close()
		return ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("nothing listens on %s", ep)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return fmt.Sprintf("no route to %s", ep)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("no answer from %s within %s", ep, wait)
	}
	return ""
}

// String implements knowledge.Remote: the URL, without credentials.
func (c *Client) String() string { return c.name }

// Close implements knowledge.Remote.
func (c *Client) Close() error { return c.cli.Close() }

// Load implements knowledge.Remote.
func (c *Client) Load(ctx context.Context) ([]knowledge.MirrorRecord, int64, error) {
	resp, err := c.cli.Get(ctx, c.records, clientv3.WithPrefix())
	if err != nil {
		return nil, 0, fmt.Errorf("etcd load %s: %w", c.name, err)
	}
	recs := make([]knowledge.MirrorRecord, len(resp.Kvs))
	for i, kv := range resp.Kvs {
		recs[i] = knowledge.MirrorRecord{Key: strings.TrimPrefix(string(kv.Key), c.records), Value: kv.Value}
	}
	return recs, resp.Header.Revision, nil
}

// Revision implements knowledge.Remote.
func (c *Client) Revision(ctx context.Context) (int64, error) {
	resp, err := c.cli.Get(ctx, c.revKey, clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("etcd revision %s: %w", c.name, err)
	}
	return resp.Header.Revision, nil
}

// Commit implements knowledge.Remote: one etcd transaction, taken only if P/rev was not
// modified after base.
func (c *Client) Commit(ctx context.Context, base int64, changes []knowledge.MirrorRecord) (int64, bool, error) {
	ops := make([]clientv3.Op, 0, len(changes)+1)
	for _, r := range changes {
		if r.Deleted {
			ops = append(ops, clientv3.OpDelete(c.records+r.Key))
		} else {
			ops = append(ops, clientv3.OpPut(c.records+r.Key, string(r.Value)))
		}
	}
	ops = append(ops, clientv3.OpPut(c.revKey, ""))
	resp, err := c.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(c.revKey), "<", base+1)).Then(ops...).Commit()
	if err != nil {
		return 0, false, fmt.Errorf("etcd commit %d records to %s: %w", len(changes), c.name, err)
	}
	return resp.Header.Revision, resp.Succeeded, nil
}

// Watch implements knowledge.Remote.
func (c *Client) Watch(ctx context.Context, after int64, changes chan<- knowledge.Change) error {
	ctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	wc := c.cli.Watch(ctx, c.records, clientv3.WithPrefix(), clientv3.WithRev(after+1))
	for resp := range wc {
		if resp.CompactRevision != 0 {
			return fmt.Errorf("etcd watch %s from %d: %w", c.name, after+1, knowledge.ErrRemoteCompacted)
		}
		if err := resp.Err(); err != nil {
			return fmt.Errorf("etcd watch %s: %w", c.name, err)
		}
		// Events of one etcd transaction share a revision: they are one Change.
		var cur knowledge.Change
		send := func() bool {
			if cur.Rev == 0 {
				return true
			}
			select {
			case changes <- cur:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, ev := range resp.Events {
			if ev.Kv.ModRevision != cur.Rev {
				if !send() {
					return ctx.Err()
				}
				cur = knowledge.Change{Rev: ev.Kv.ModRevision}
			}
			r := knowledge.MirrorRecord{Key: strings.TrimPrefix(string(ev.Kv.Key), c.records)}
			if ev.Type == clientv3.EventTypeDelete {
				r.Deleted = true
			} else {
				r.Value = ev.Kv.Value
			}
			cur.Records = append(cur.Records, r)
		}
		if !send() {
			return ctx.Err()
		}
	}
	return ctx.Err()
}
