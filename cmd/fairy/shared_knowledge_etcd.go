package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
)

// Keys of the config section knowledge-etcd: how to reach an etcd cluster named by
// --knowledge etcd://HOST:PORT[,HOST:PORT…]/PREFIX (docs/evaluation.md: running a fleet).
const (
	keyEtcdSection  = "knowledge-etcd"
	keyEtcdUser     = keyEtcdSection + ".username"
	keyEtcdPassword = keyEtcdSection + ".password"
	keyEtcdCA       = keyEtcdSection + ".ca-file"
	keyEtcdCert     = keyEtcdSection + ".cert-file"
	keyEtcdKey      = keyEtcdSection + ".key-file"
)

// etcdAccess is the TLS and authentication of knowledge-etcd:.
type etcdAccess struct {
	Username, Password        string
	CAFile, CertFile, KeyFile string
}

// etcdAccess reads the knowledge-etcd: section.
func (s *settings) etcdAccess() etcdAccess {
	return etcdAccess{Username: s.v.GetString(keyEtcdUser), Password: s.v.GetString(keyEtcdPassword),
		CAFile: s.v.GetString(keyEtcdCA), CertFile: s.v.GetString(keyEtcdCert), KeyFile: s.v.GetString(keyEtcdKey)}
}

// knowledgeRef says where the knowledge is (a bbolt file or an etcd:// URL) and how to
// reach etcd (the config's knowledge-etcd: TLS and auth), for the commands that open it.
type knowledgeRef struct {
	path   func() (string, error)
	access func() etcdAccess // nil: no TLS, no auth
	// demo is the demo's own knowledge file when the person named no knowledge file and
	// the demo has made one ("": none); nil: not asked.
	demo func() string
	// named says whether the flags or the config named the location (nil: not known).
	named func() bool
}

// flag is " --knowledge LOC" for a command to copy when the location was named, so that
// the command reads what this one wrote; "" for the default location.
func (k knowledgeRef) flag() string {
	if k.named == nil || !k.named() {
		return ""
	}
	p, err := k.path()
	if err != nil {
		return ""
	}
	return " --knowledge " + shellWord(p)
}

// Path is the knowledge location.
func (k knowledgeRef) Path() (string, error) { return k.path() }

// Access is how to reach etcd when Path is an etcd:// URL.
func (k knowledgeRef) Access() etcdAccess {
	if k.access == nil {
		return etcdAccess{}
	}
	return k.access()
}

// pathRef is the knowledge at a location given by f, with no etcd TLS or auth.
func pathRef(f func() (string, error)) knowledgeRef { return knowledgeRef{path: f} }

// knowledgeRef is the knowledge the flags and the config name, with the config's access.
func (s *settings) knowledgeRef() knowledgeRef {
	return knowledgeRef{path: s.knowledgePath, access: s.etcdAccess, demo: s.demoKnowledgeMade,
		named: func() bool { return s.v.GetString(keyKnowledge) != "" }}
}

// openKnowledgeStore opens the knowledge at loc: a bbolt file, or the knowledge of a fleet
// on etcd when loc is an etcd:// URL (the access applies to that only).
func openKnowledgeStore(loc string, opts knowledge.Options, access etcdAccess) (*knowledge.Store, error) {
	if !etcdstore.IsURL(loc) {
		return knowledge.Open(loc, opts)
	}
	cfg, err := etcdstore.ParseURL(loc)
	if err != nil {
		return nil, err
	}
	cfg.Username, cfg.Password = access.Username, access.Password
	if access.CAFile != "" || access.CertFile != "" {
		if cfg.TLS, err = access.tls(); err != nil {
			return nil, err
		}
	}
	s, err := etcdstore.Open(cfg, opts)
	var ee *etcdstore.EndpointsError
	if errors.As(err, &ee) {
		return nil, err // it says what is wrong and what to do
	}
	if err != nil {
		return nil, fmt.Errorf("%w (is etcd running there? TLS and auth come from the config's %s: section)", err,
			keyEtcdSection)
	}
	return s, nil
}

func (a etcdAccess) tls() (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if a.CAFile != "" {
		pem, err := os.ReadFile(a.CAFile)
		if err != nil {
			return nil, fmt.Errorf("%s.ca-file: %w", keyEtcdSection, err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s.ca-file %s holds no PEM certificate", keyEtcdSection, a.CAFile)
		}
	}
	if a.CertFile != "" || a.KeyFile != "" {
		cert, err := tls.LoadX509KeyPair(a.CertFile, a.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("%s.cert-file and key-file: %w", keyEtcdSection, err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}
