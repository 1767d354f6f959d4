// Package etcdstore keeps fairy's knowledge in etcd, for a fleet of agents on many hosts:
// it is the knowledge.Remote over etcd's client, and the only package that imports it.
//
// The types to know: Config (endpoints, prefix, credentials, TLS) — ParseURL reads one
// from etcd://HOST:PORT[,HOST:PORT…]/PREFIX and IsURL tells such a location from a file;
// Client (New), the knowledge.Remote that loads, commits and watches the records; and
// Open, which returns a knowledge.Store over a Client: the same API as a bbolt file, with a
// local replica kept current by a watch, and writes queued while etcd is away.
//
// Under a prefix P, every record of the store is the key P/r/<record key> (the record keys
// of knowledge.Remote), and P/rev is touched by every write: a write commits only if P/rev
// was not modified after the revision the writer's replica holds (compare-and-swap), so
// concurrent learners merge their counts instead of overwriting each other.
//
// Caveats: etcd's defaults cap a transaction at 128 operations and 1.5 MiB; a learning
// write stays well below, but importing a large export in one go needs a server started
// with larger --max-txn-ops and --max-request-bytes (docs/evaluation.md: running a fleet). An
// unreachable cluster is an *EndpointsError that wraps knowledge.ErrRemoteUnreachable.
// Its tests start a real etcd (package etcdtest).
package etcdstore
